import { isFinishedJob, type Job, type JobShow } from '@app/contracts';
import { Alert, Button, buttonClassName, ConfirmDialog } from '@app/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Undo2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useMessages } from '../../i18n/messages';
import { apiErrorMessage } from '../../lib/api-error';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { watchJob } from './job-watch';
import { useJob } from './use-job';

/** Whether the server still offers to undo this job: before `undo.until`, and not undone yet. */
export const canUndo = (job: Job, now = Date.now()): boolean =>
  job.undo !== null && job.undo.by === null && job.undo.until !== null && Date.parse(job.undo.until) > now;

/** `POST /jobs/{id}/undo` (tRPC `imports.undo`): a dry run or the undo itself, watched like any job this tab started. */
function useUndoJob(jobId: number) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.imports.undo.mutationOptions({
      onSuccess: ({ job }, input) => {
        if (input.dryRun) return;
        watchJob(job.id);
        // The job's own `undo.by` now names the undo.
        void queryClient.invalidateQueries(trpc.jobs.show.queryFilter({ id: jobId }));
        void queryClient.invalidateQueries(trpc.jobs.list.pathFilter());
      },
    }),
  );
}

/**
 * What the dry run found, in words: how many users would be moved to the trash (those an import
 * added), put back, and left as they are — with the server's reason codes and their counts, and
 * the dry run's own page for who exactly.
 */
function DryRunResult({ data }: { data: JobShow }) {
  const m = useMessages();
  const t = m.jobUndo;
  const { item: judged } = data;
  const { changed, skipped } = judged.progress;
  // An import's undo tells its removals from its put-backs; a bulk job's undo only puts back.
  const accounts = judged.undo?.accounts ?? null;
  const removed = accounts?.removed ?? 0;
  const restored = accounts ? accounts.restored : changed;
  const reasons = Object.entries(judged.counts).filter(([, count]) => count > 0);
  return (
    <div className="space-y-2 text-sm">
      {changed === 0 ? <p>{t.nothing}</p> : null}
      {removed > 0 ? <p>{t.wouldRemove(removed)}</p> : null}
      {restored > 0 ? <p>{t.wouldChange(restored)}</p> : null}
      {skipped > 0 ? (
        <>
          <p>{t.wouldSkip(skipped)}</p>
          <ul aria-label={t.reasonsLabel} className="list-disc space-y-0.5 pl-5 text-muted-foreground">
            {reasons.map(([code, count]) => (
              <li key={code}>{t.reason(m.jobs.skipCode(code), count)}</li>
            ))}
          </ul>
          <Link
            to={`/jobs/${judged.id}`}
            className="inline-block rounded-sm font-medium text-foreground underline underline-offset-4"
          >
            {t.seeWho}
          </Link>
        </>
      ) : null}
    </div>
  );
}

/**
 * "Undo this job" (an import's: "Undo this import") while the server offers it (`undo.until`):
 * a dry run first, judged by the server exactly as the undo would be, whose counts and reasons
 * the confirmation shows; once undone, a link to the undo job's page. The job page and the
 * import page both show this one.
 */
export function JobUndo({ job }: { job: Job }) {
  const m = useMessages();
  const t = m.jobUndo;
  const words = job.kind === 'import' ? t.import : t;
  const [open, setOpen] = useState(false);
  const [dryRunId, setDryRunId] = useState<number | null>(null);
  const check = useUndoJob(job.id);
  const undo = useUndoJob(job.id);
  const dryRun = useJob(dryRunId);
  const undoId = undo.data?.job.id ?? job.undo?.by ?? null;

  if (undoId !== null) {
    return (
      <Alert
        tone="info"
        title={words.done}
        actions={
          <Link to={`/jobs/${undoId}`} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
            {t.viewUndo}
          </Link>
        }
      />
    );
  }
  if (!canUndo(job)) return null;
  const judged = dryRun.data;
  const ready = judged !== undefined && isFinishedJob(judged.item.status);
  const failed = ready && judged?.item.status !== 'succeeded';
  const start = () => {
    setOpen(true);
    setDryRunId(null);
    check.mutate({ id: job.id, dryRun: true }, { onSuccess: ({ job: dry }) => setDryRunId(dry.id) });
  };
  return (
    <div className="space-y-3">
      {undo.isError ? <Alert tone="danger">{apiErrorMessage(undo.error, m)}</Alert> : null}
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <Button variant="secondary" onClick={start}>
          <Undo2 aria-hidden="true" />
          {words.button}
        </Button>
        {job.undo?.until ? (
          <p className="text-sm text-muted-foreground">{t.until(m.common.dateTime(job.undo.until))}</p>
        ) : null}
      </div>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={words.title}
        description={words.description}
        confirmLabel={words.confirm}
        cancelLabel={m.common.cancel}
        tone="danger"
        pending={undo.isPending}
        confirmDisabled={!ready || failed || (judged?.item.progress.changed ?? 0) === 0}
        onConfirm={() =>
          undo.mutate(
            { id: job.id, dryRun: false },
            { onSuccess: () => toast.success(t.started), onSettled: () => setOpen(false) },
          )
        }
      >
        {check.isError ? (
          <Alert tone="danger">{apiErrorMessage(check.error, m)}</Alert>
        ) : failed ? (
          <Alert tone="danger">{t.checkFailed}</Alert>
        ) : ready && judged ? (
          <DryRunResult data={judged} />
        ) : (
          <p className="text-sm text-muted-foreground" role="status">
            {t.checking}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
