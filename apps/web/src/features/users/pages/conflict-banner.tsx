import { Alert, Button } from '@app/ui';
import { RefreshCw } from 'lucide-react';
import { useMessages } from '../../../i18n/messages';

export type ConflictState = { stage: 'detected'; message: string } | { stage: 'reloaded'; hasDraft: boolean } | null;

/**
 * A 409: someone saved this user after the form was opened. First offer to load their version;
 * once loaded, say so and keep the user's own edits beside the fields until dismissed.
 */
export function ConflictBanner({
  conflict,
  reloading,
  onReload,
  onDismissDraft,
}: {
  conflict: ConflictState;
  reloading: boolean;
  onReload: () => void;
  onDismissDraft: () => void;
}) {
  const m = useMessages();
  const f = m.userForm;
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
          <Button size="sm" variant="ghost" onClick={onDismissDraft}>
            {f.conflictDiscardDraft}
          </Button>
        ) : undefined
      }
    >
      {conflict.hasDraft ? f.conflictReloaded : null}
    </Alert>
  );
}
