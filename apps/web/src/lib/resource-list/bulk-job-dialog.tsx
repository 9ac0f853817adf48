import { ConfirmDialog, Spinner } from '@app/ui';
import type { ListStrings } from '../../i18n/list-strings';
import type { BulkJobs } from './bulk-actions';
import { BulkNotice } from './bulk-notice';
import type { BulkRun } from './use-bulk-run';

export interface BulkJobDialogProps {
  flow: Omit<BulkRun, 'start'>;
  jobs: Pick<BulkJobs, 'Progress' | 'Skips'>;
  strings: ListStrings['bulk'];
}

/**
 * Confirms a command over everything matching: the dry-run job's progress while it judges every
 * record, then what would change and what would be skipped and why; nothing changes before
 * "confirm", which starts the real job.
 */
export function BulkJobDialog({ flow, jobs: { Progress, Skips }, strings: t }: BulkJobDialogProps) {
  const { command, target, jobReport: report } = flow;
  if (!command || !target || !('selection' in target)) return null;
  const changed = report?.item.progress.changed ?? 0;
  const skipped = report?.item.progress.skipped ?? 0;
  const failed = flow.checkError !== null || flow.jobFailed !== undefined;
  const failure = flow.checkError ?? flow.jobFailed?.error;
  const { text } = command;
  // A whole sentence in every state: a verb such as "Give admin to" needs its count.
  const confirmLabel = report
    ? changed === 0
      ? t.nothingButton
      : t.confirmAll(text.verb, changed)
    : failed
      ? t.confirmMatching(text.verb, target.matched.count, target.matched.exact)
      : t.checkingButton;

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : flow.close())}
      title={t.titleAll(text.verb, target.matched.count, target.matched.exact)}
      description={text.description}
      confirmLabel={confirmLabel}
      cancelLabel={t.cancel}
      tone={command.destructive ? 'danger' : 'primary'}
      pending={flow.running}
      confirmDisabled={!report || changed === 0}
      onConfirm={flow.confirm}
    >
      {failed ? (
        <div role="alert" className="rounded-lg border border-danger/30 bg-danger/5 px-3 py-2.5">
          <p className="font-medium text-danger">{t.checkAllFailed}</p>
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
              <strong className="font-semibold">{t.wouldChange(changed)}</strong>;{' '}
              {skipped === 0 ? t.noneSkipped : `${t.skipped(skipped)}:`}
            </p>
          )}
          <BulkNotice text={text.notice?.(report.item) ?? null} />
          {/* The dialog's body scrolls; each reason's examples scroll within it, by keyboard too. */}
          <Skips data={report} />
        </div>
      ) : (
        <div role="status" className="space-y-3">
          <p className="flex items-center gap-2 text-muted-foreground">
            <Spinner />
            {t.checkingAll}
          </p>
          {flow.job ? <Progress job={flow.job} /> : null}
        </div>
      )}
    </ConfirmDialog>
  );
}
