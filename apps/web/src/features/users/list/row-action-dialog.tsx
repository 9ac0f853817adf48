import { ConfirmDialog } from '@app/ui';
import { useMessages } from '../../../i18n/messages';
import { DESTRUCTIVE_ACTIONS } from './user-actions';
import type { useRowAction } from './use-row-action';

/** The confirmation of a row's action; the flow (`useRowAction`) runs it. */
export function RowActionDialog({ flow }: { flow: ReturnType<typeof useRowAction> }) {
  const m = useMessages();
  const t = m.usersList.rowActions;
  const { request } = flow;
  if (!request) return null;
  const { action, row, returnFocusTo } = request;
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : flow.close())}
      title={t.title[action](row.name)}
      description={t.description[action]}
      confirmLabel={t[action]}
      cancelLabel={t.cancel}
      tone={DESTRUCTIVE_ACTIONS.has(action) ? 'danger' : 'primary'}
      pending={flow.pending}
      onConfirm={() => void flow.confirm()}
      onCloseAutoFocus={(event) => {
        if (returnFocusTo?.isConnected) {
          event.preventDefault();
          returnFocusTo.focus();
        }
      }}
    />
  );
}
