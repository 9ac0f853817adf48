import { isFinishedJob } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useJob } from '../../jobs/use-job';
import { watchJob } from '../../jobs/job-watch';
import { useMessages } from '../../../i18n/messages';
import { apiErrorMessage } from '../../../lib/api-error';
import { useTRPC, useTRPCClient } from '../../../lib/trpc';
import { type BulkCommand, bulkJobOf, selectionInput, type UsersSelection } from './user-actions';

/** A dry run still moving is asked about this often: the dialog's bar should visibly move. */
const DRY_RUN_POLL_MS = 500;

/**
 * A bulk action over everything matching (any size), in three steps: opening it submits the
 * dry-run job and follows it (progress, then counts and examples per reason); confirming submits
 * the real job and opens its page. Closing during the dry run cancels that job.
 */
export function useSelectionBulk({
  selection,
  total,
  onStarted,
}: {
  selection: UsersSelection | null;
  total: { count: number; exact: boolean };
  onStarted: () => void;
}) {
  const m = useMessages();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [action, setAction] = useState<BulkCommand | null>(null);
  // The selection the dry run judged: the real run acts on exactly it, whatever happens meanwhile.
  const [target, setTarget] = useState<UsersSelection | null>(null);
  const [asked, setAsked] = useState(total);
  const submitCheck = useMutation(trpc.users.bulk.mutationOptions());
  const run = useMutation(trpc.users.bulk.mutationOptions());
  const checkJobId = submitCheck.data ? bulkJobOf(submitCheck.data).id : null;
  const check = useJob(checkJobId, DRY_RUN_POLL_MS);

  const dryRun = (next: BulkCommand, chosen: UsersSelection) => submitCheck.mutate(selectionInput(next, chosen, true));

  const start = (next: BulkCommand) => {
    if (!selection) return;
    setAction(next);
    setTarget(selection);
    setAsked(total);
    run.reset();
    dryRun(next, selection);
  };

  const close = () => {
    if (run.isPending) return;
    // A dry run nobody waits for any more need not finish.
    if (checkJobId !== null && check.data && !isFinishedJob(check.data.item.status)) {
      void client.jobs.cancel.mutate({ id: checkJobId }).catch(() => undefined);
    }
    setAction(null);
    submitCheck.reset();
  };

  const confirm = () => {
    if (!action || !target) return;
    run.mutate(selectionInput(action, target, false), {
      onSuccess: (answer) => {
        const job = bulkJobOf(answer);
        watchJob(job.id);
        toast.success(m.jobs.matching.started);
        void queryClient.invalidateQueries(trpc.jobs.list.pathFilter());
        onStarted();
        setAction(null);
        submitCheck.reset();
        void navigate(`/jobs/${job.id}`);
      },
      onError: (error) => toast.error(apiErrorMessage(error, m)),
    });
  };

  const report = check.data && check.data.item.status === 'succeeded' ? check.data : undefined;
  const failedJob = check.data && isFinishedJob(check.data.item.status) && !report ? check.data.item : undefined;
  return {
    action,
    total: asked,
    /** The dry-run job while it moves (for its progress). */
    job: check.data?.item,
    report,
    checking: !report && !failedJob && (submitCheck.isPending || checkJobId !== null),
    checkError: submitCheck.error ?? check.error ?? null,
    checkFailed: failedJob,
    retryCheck: () => action && target && dryRun(action, target),
    running: run.isPending,
    start,
    close,
    confirm,
  };
}

export type SelectionBulkFlow = ReturnType<typeof useSelectionBulk>;
