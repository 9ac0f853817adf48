import { Alert, Button } from '@app/ui';
import { RefreshCw } from 'lucide-react';

/** Where a form stands after a save was refused with 409: none, told, or showing the latest version. */
export type ConflictState = { stage: 'detected'; message: string } | { stage: 'reloaded'; hasDraft: boolean } | null;

export interface ConflictBannerStrings {
  title: string;
  reload: string;
  reloading: string;
  reloadedTitle: string;
  /** What happened to the caller's own edits, shown while they are kept aside. */
  reloaded: string;
  /** Putting the kept edits back on top of the latest version (offered with `onReapply`). */
  reapply?: string;
  /** Dropping them. */
  discard: string;
}

export interface ConflictBannerProps {
  conflict: ConflictState;
  reloading: boolean;
  onReload: () => void;
  /** Drop the edits kept aside. */
  onDiscard: () => void;
  /** Apply them again on top of the latest version, for a form that can (a role's permission set). */
  onReapply?: () => void;
  strings: ConflictBannerStrings;
}

/**
 * A 409: someone saved the record after the form was opened. First it offers to load their
 * version; once loaded, it says so and offers what the form can do with the caller's own edits.
 */
export function ConflictBanner({
  conflict,
  reloading,
  onReload,
  onDiscard,
  onReapply,
  strings: s,
}: ConflictBannerProps) {
  if (!conflict) return null;
  if (conflict.stage === 'detected') {
    return (
      <Alert
        tone="warning"
        title={s.title}
        actions={
          <Button size="sm" variant="secondary" onClick={onReload} loading={reloading}>
            {reloading ? null : <RefreshCw aria-hidden="true" />}
            {reloading ? s.reloading : s.reload}
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
      title={s.reloadedTitle}
      actions={
        conflict.hasDraft ? (
          <>
            {onReapply && s.reapply ? (
              <Button size="sm" variant="secondary" onClick={onReapply}>
                {s.reapply}
              </Button>
            ) : null}
            <Button size="sm" variant="ghost" onClick={onDiscard}>
              {s.discard}
            </Button>
          </>
        ) : undefined
      }
    >
      {conflict.hasDraft ? s.reloaded : null}
    </Alert>
  );
}
