import { isFinishedJob, type Job } from '@app/contracts';
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

/** What the dry run found, in words: how many would be put back, how many left. */
function DryRunResult({ job }: { job: Job }) {
  const t = useMessages().jobUndo;
  const { changed, skipped } = job.progress;
  return (
    <div className="space-y-1 text-sm">
      <p>{changed > 0 ? t.wouldChange(changed) : t.nothing}</p>
      {skipped > 0 ? <p className="text-muted-foreground">{t.wouldSkip(skipped)}</p> : null}
    </div>
  );
}

/**
 * "Undo this job" on a finished job's page, while the server offers it (`undo.until`): a bulk job
 * runs a dry run first, whose counts the confirmation shows (an import's undo has none: its page
 * lists what it changed); once undone, a link to the undo job's page.
 */
export function JobUndo({ job }: { job: Job }) {
  const m = useMessages();
  const t = m.jobUndo;
  const [open, setOpen] = useState(false);
  const [dryRunId, setDryRunId] = useState<number | null>(null);
  const check = useUndoJob(job.id);
  const undo = useUndoJob(job.id);
  const dryRun = useJob(dryRunId);
  const undoId = undo.data?.job.id ?? job.undo?.by ?? null;
  const checks = job.kind === 'bulk';

  if (undoId !== null) {
    return (
      <Alert
        tone="info"
        title={t.done}
        actions={
          <Link to={`/jobs/${undoId}`} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
            {t.viewUndo}
          </Link>
        }
      />
    );
  }
  if (!canUndo(job)) return null;
  const judged = dryRun.data?.item;
  const ready = !checks || (judged !== undefined && isFinishedJob(judged.status));
  const failed = checks && ready && judged?.status !== 'succeeded';
  const start = () => {
    setOpen(true);
    if (checks) check.mutate({ id: job.id, dryRun: true }, { onSuccess: ({ job: dry }) => setDryRunId(dry.id) });
  };
  return (
    <div className="space-y-3">
      {undo.isError ? <Alert tone="danger">{apiErrorMessage(undo.error, m)}</Alert> : null}
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <Button variant="secondary" onClick={start}>
          <Undo2 aria-hidden="true" />
          {t.button}
        </Button>
        {job.undo?.until ? (
          <p className="text-sm text-muted-foreground">{t.until(m.common.dateTime(job.undo.until))}</p>
        ) : null}
      </div>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t.title}
        description={checks ? t.description : t.importDescription}
        confirmLabel={t.confirm}
        cancelLabel={m.common.cancel}
        tone="danger"
        pending={undo.isPending}
        confirmDisabled={!ready || failed || (checks && (judged?.progress.changed ?? 0) === 0)}
        onConfirm={() =>
          undo.mutate(
            { id: job.id, dryRun: false },
            { onSuccess: () => toast.success(t.started), onSettled: () => setOpen(false) },
          )
        }
      >
        {!checks ? null : check.isError ? (
          <Alert tone="danger">{apiErrorMessage(check.error, m)}</Alert>
        ) : failed ? (
          <Alert tone="danger">{t.checkFailed}</Alert>
        ) : ready && judged ? (
          <DryRunResult job={judged} />
        ) : (
          <p className="text-sm text-muted-foreground" role="status">
            {t.checking}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
