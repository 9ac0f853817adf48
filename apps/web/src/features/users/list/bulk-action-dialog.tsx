import type { BulkReport } from '@app/contracts';
import { ConfirmDialog, Spinner } from '@app/ui';
import { useQueries } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { useMessages } from '../../../i18n/messages';
import { apiErrorMessage } from '../../../lib/api-error';
import { useTRPC } from '../../../lib/trpc';
import type { BulkActionFlow } from './use-bulk-action';
import { type BulkCommandText, bulkCommandText } from './bulk-command-text';

export type KnownUsers = ReadonlyMap<number, { name: string; email: string }>;

// A report can skip thousands; the first ones say enough, the count says the rest.
const SKIPPED_SHOWN = 50;
// Skipped users the table never showed are looked up by id, a few at most.
const LOOKUPS = 10;

/** Names for skipped ids: from rows already seen, else a lookup (for the first few). */
function useSkippedUsers(report: BulkReport, known: KnownUsers, withTrashed: boolean): KnownUsers {
  const trpc = useTRPC();
  const unknown = report.skipped
    .filter((entry) => entry.code !== 'NOT_FOUND' && !known.has(entry.id))
    .slice(0, LOOKUPS)
    .map((entry) => entry.id);
  const lookups = useQueries({
    queries: unknown.map((id) =>
      trpc.users.show.queryOptions({ id, ...(withTrashed ? { withTrashed: true } : {}) }, { retry: false }),
    ),
  });
  const names = new Map(known);
  for (const lookup of lookups) {
    if (lookup.data) names.set(lookup.data.item.id, { name: lookup.data.item.name, email: lookup.data.item.email });
  }
  return names;
}

interface DryRunReportProps {
  text: BulkCommandText;
  report: BulkReport;
  known: KnownUsers;
  withTrashed: boolean;
}

function DryRunReport({ text, report, known: seen, withTrashed }: DryRunReportProps) {
  const m = useMessages();
  const t = m.usersList.bulk;
  const { affected, skipped } = report;
  const known = useSkippedUsers(report, seen, withTrashed);
  return (
    <div className="space-y-3" aria-live="polite">
      {affected.length === 0 ? (
        <p className="font-medium text-foreground">{t.nothingToDo}</p>
      ) : (
        <p className="text-foreground">
          <strong className="font-semibold">{text.affected(affected.length)}</strong>;{' '}
          {skipped.length === 0 ? t.noneSkipped : `${t.skipped(skipped.length)}:`}
        </p>
      )}
      {skipped.length > 0 ? (
        <ul className="max-h-56 divide-y divide-border overflow-y-auto rounded-lg border border-border bg-surface-muted/40">
          {skipped.slice(0, SKIPPED_SHOWN).map((entry) => {
            const user = known.get(entry.id);
            return (
              <li key={entry.id} className="flex gap-2.5 px-3 py-2">
                <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning" />
                <div className="min-w-0">
                  <p className="truncate font-medium text-foreground">
                    {user ? user.name : t.skippedUser(entry.id)}
                    {user ? <span className="ml-1.5 font-normal text-muted-foreground">{user.email}</span> : null}
                  </p>
                  <p className="text-muted-foreground">{entry.message}</p>
                </div>
              </li>
            );
          })}
          {skipped.length > SKIPPED_SHOWN ? (
            <li className="px-3 py-2 text-muted-foreground">{t.moreSkipped(skipped.length - SKIPPED_SHOWN)}</li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}

/** Confirms a bulk action with its dry-run report; nothing changes before "confirm". */
export interface BulkActionDialogProps {
  flow: BulkActionFlow;
  /** Users whose names are known already (rows seen, the signed-in user). */
  known: KnownUsers;
  /** The caller may look at deleted users (to name skipped ones). */
  canSeeTrash: boolean;
}

export function BulkActionDialog({ flow, known, canSeeTrash }: BulkActionDialogProps) {
  const m = useMessages();
  const t = m.usersList.bulk;
  const { action, report } = flow;
  if (!action) return null;
  const affected = report?.affected.length ?? 0;
  const text = bulkCommandText(m, action);

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : flow.close())}
      title={text.title(flow.count)}
      description={text.description}
      confirmLabel={report ? text.confirm(affected) : text.verb}
      cancelLabel={t.cancel}
      tone={text.destructive ? 'danger' : 'primary'}
      pending={flow.running}
      confirmDisabled={!report || affected === 0 || flow.checking}
      onConfirm={flow.confirm}
    >
      {flow.checking ? (
        <p role="status" className="flex items-center gap-2 text-muted-foreground">
          <Spinner />
          {t.checking}
        </p>
      ) : flow.checkError ? (
        <div role="alert" className="rounded-lg border border-danger/30 bg-danger/5 px-3 py-2.5">
          <p className="font-medium text-danger">{t.checkFailed}</p>
          <p className="mt-0.5 text-muted-foreground">{apiErrorMessage(flow.checkError, m)}</p>
          <button
            type="button"
            onClick={() => flow.retryCheck()}
            className="mt-2 text-sm font-medium text-foreground underline underline-offset-4"
          >
            {t.retry}
          </button>
        </div>
      ) : report ? (
        <DryRunReport text={text} report={report} known={known} withTrashed={canSeeTrash} />
      ) : null}
    </ConfirmDialog>
  );
}
