import { lazy, type ReactNode, Suspense, useState } from 'react';
import { type RowActionRequest, RowActionRequests } from './users-row-actions';

// The confirmation loads when a row's action is first chosen, as the bulk dialogs do.
const RowActionDialog = lazy(() => import('./row-action-dialog').then((m) => ({ default: m.RowActionDialog })));

export interface RowActionsScopeProps {
  /** An undo on a deletion's toast needs the right to restore. */
  canRestore: boolean;
  /** A row that left the view (deleted, purged, restored) leaves the selection too. */
  onRemoved: (id: number) => void;
  children: ReactNode;
}

/** Answers the row menus inside it: confirms the action one asks for, then runs it. */
export function RowActionsScope({ canRestore, onRemoved, children }: RowActionsScopeProps) {
  const [request, setRequest] = useState<RowActionRequest | null>(null);
  return (
    <RowActionRequests value={setRequest}>
      {children}
      {request ? (
        <Suspense fallback={null}>
          <RowActionDialog
            request={request}
            canRestore={canRestore}
            onRemoved={onRemoved}
            onClose={() => setRequest(null)}
          />
        </Suspense>
      ) : null}
    </RowActionRequests>
  );
}
