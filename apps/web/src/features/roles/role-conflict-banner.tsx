import { Alert, Button } from '@app/ui';
import { RefreshCw } from 'lucide-react';
import { useRoleEditorMessages } from '../../i18n/role-editor-messages';

export type RoleConflict = { stage: 'detected'; message: string } | { stage: 'reloaded'; hasDraft: boolean } | null;

/**
 * A 409: someone saved this role after the form was opened. First offer to load their version;
 * once loaded, the form shows theirs, and the caller's own edits wait to be applied again on top
 * of it (or dropped) — a permission set is one value, so it is taken whole or not at all.
 */
export function RoleConflictBanner({
  conflict,
  reloading,
  onReload,
  onReapply,
  onDiscard,
}: {
  conflict: RoleConflict;
  reloading: boolean;
  onReload: () => void;
  onReapply: () => void;
  onDiscard: () => void;
}) {
  const r = useRoleEditorMessages();
  const f = r.form;
  if (!conflict) return null;
  if (conflict.stage === 'detected') {
    return (
      <Alert
        tone="warning"
        title={f.conflictTitle}
        actions={
          <Button size="sm" variant="secondary" onClick={onReload} loading={reloading}>
            {reloading ? null : <RefreshCw aria-hidden="true" />}
            {reloading ? f.conflictReloading : f.conflictReload}
          </Button>
        }
      >
        {conflict.message}
      </Alert>
    );
  }
  return (
    <Alert
      tone="info"
      title={f.conflictReloadedTitle}
      actions={
        conflict.hasDraft ? (
          <>
            <Button size="sm" variant="secondary" onClick={onReapply}>
              {f.conflictReapply}
            </Button>
            <Button size="sm" variant="ghost" onClick={onDiscard}>
              {f.conflictDiscard}
            </Button>
          </>
        ) : undefined
      }
    >
      {conflict.hasDraft ? f.conflictReloaded : null}
    </Alert>
  );
}
