import { ConfirmDialog, Spinner } from '@app/ui';
import { JobProgressBar } from '../../jobs/job-progress';
import { JobSkips } from '../../jobs/job-skips';
import { useMessages } from '../../../i18n/messages';
import { apiErrorMessage } from '../../../lib/api-error';
import type { SelectionBulkFlow } from './use-selection-bulk';
import { bulkCommandText } from './bulk-command-text';

/**
 * Confirms a bulk action over everything matching: the dry-run job's progress while it judges
 * every user, then what would change and who would be skipped and why; nothing changes before
 * "confirm", which starts the real job.
 */
export function SelectionBulkDialog({ flow }: { flow: SelectionBulkFlow }) {
  const m = useMessages();
  const t = m.usersList.bulk;
  const s = m.jobs.matching;
  const { action, report } = flow;
  if (!action) return null;
  const changed = report?.item.progress.changed ?? 0;
  const skipped = report?.item.progress.skipped ?? 0;
  const failure = flow.checkError ? apiErrorMessage(flow.checkError, m) : flow.checkFailed?.error;
  const text = bulkCommandText(m, action);

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : flow.close())}
      title={s.titleAll(text.verb, flow.total.count, flow.total.exact)}
      description={text.description}
      confirmLabel={report ? s.confirmAll(text.verb, changed) : text.verb}
      cancelLabel={t.cancel}
      tone={text.destructive ? 'danger' : 'primary'}
      pending={flow.running}
      confirmDisabled={!report || changed === 0}
      onConfirm={flow.confirm}
    >
      {flow.checkError || flow.checkFailed ? (
        <div role="alert" className="rounded-lg border border-danger/30 bg-danger/5 px-3 py-2.5">
          <p className="font-medium text-danger">{s.checkFailed}</p>
          {failure ? <p className="mt-0.5 text-muted-foreground">{failure}</p> : null}
          <button
            type="button"
            onClick={() => flow.retryCheck()}
            className="mt-2 text-sm font-medium text-foreground underline underline-offset-4"
          >
            {t.retry}
          </button>
        </div>
      ) : report ? (
        <div className="space-y-3" aria-live="polite">
          {changed === 0 ? (
            <p className="font-medium text-foreground">{t.nothingToDo}</p>
          ) : (
            <p className="text-foreground">
              <strong className="font-semibold">{m.jobs.outcome.wouldChange(changed)}</strong>;{' '}
              {skipped === 0 ? t.noneSkipped : `${t.skipped(skipped)}:`}
            </p>
          )}
          <JobSkips data={report} className="max-h-72 space-y-3 overflow-y-auto" />
        </div>
      ) : (
        <div role="status" className="space-y-3">
          <p className="flex items-center gap-2 text-muted-foreground">
            <Spinner />
            {s.checking}
          </p>
          {flow.job ? <JobProgressBar job={flow.job} /> : null}
        </div>
      )}
    </ConfirmDialog>
  );
}
