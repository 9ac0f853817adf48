import { isFinishedJob, type Job } from '@app/contracts';
import { type QueryFilters, type UseMutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../toast';
import type { ListStrings } from '../../i18n/list-strings';
import { useMessages } from '../../i18n/messages';
import { apiErrorMessage } from '../api-error';
import type { BulkCommand, BulkJobs, BulkReportLike, BulkSelection, BulkVariables } from './bulk-actions';

/** A command on its way: its words, and whether losing data makes it red. */
export type RunningCommand<Op> = BulkCommand<Op> & { destructive: boolean };

/** What a command runs on: picked ids (answered with a report), or every match (with a job). */
export type BulkTarget<F> =
  | { ids: number[] }
  | { selection: BulkSelection<F>; matched: { count: number; exact: boolean } };

/** A dry run still moving is asked about this often: the dialog's bar should visibly move. */
const DRY_RUN_POLL_MS = 500;

export interface UseBulkRunOptions<Op, F, Answer, E> {
  submit: UseMutationOptions<Answer, E, BulkVariables<Op, F>>;
  refresh: QueryFilters;
  jobs: BulkJobs;
  strings: ListStrings['bulk'];
  /** After the real run, or once its job is submitted (the selection is cleared). */
  onDone: () => void;
}

/**
 * A bulk command in steps: starting it runs the dry run — for picked ids a report, for every
 * match a job followed until it has judged them all — which the dialog shows; only confirming
 * changes anything. Picked ids end in a toast and a refetch, a job is handed to the jobs' page.
 * Closing during a dry-run job cancels it.
 */
export function useBulkRun<Op, F, Answer extends BulkReportLike | { job: Job }, E>({
  submit,
  refresh,
  jobs,
  strings,
  onDone,
}: UseBulkRunOptions<Op, F, Answer, E>) {
  const m = useMessages();
  const queryClient = useQueryClient();
  const cancel = jobs.useCancel();
  const handOff = jobs.useHandOff();
  const [command, setCommand] = useState<RunningCommand<Op> | null>(null);
  // What the dry run judged: the real run acts on exactly it, whatever happens meanwhile.
  const [target, setTarget] = useState<BulkTarget<F> | null>(null);
  const check = useMutation(submit);
  const run = useMutation(submit);
  const checked: BulkReportLike | { job: Job } | undefined = check.data;
  const checkJobId = checked && 'job' in checked ? checked.job.id : null;
  const polled = jobs.useJob(checkJobId, DRY_RUN_POLL_MS);
  const followed = polled.data;

  const request = (next: RunningCommand<Op>, on: BulkTarget<F>, dryRun: boolean): BulkVariables<Op, F> =>
    'ids' in on ? { ...next.operation, ids: on.ids, dryRun } : { ...next.operation, selection: on.selection, dryRun };

  const start = (next: RunningCommand<Op>, on: BulkTarget<F>) => {
    setCommand(next);
    setTarget(on);
    run.reset();
    check.mutate(request(next, on, true));
  };

  const close = () => {
    if (run.isPending) return;
    // A dry run nobody waits for any more need not finish.
    if (checkJobId !== null && followed && !isFinishedJob(followed.item.status)) cancel(checkJobId);
    setCommand(null);
    check.reset();
  };

  const confirm = () => {
    if (!command || !target) return;
    run.mutate(request(command, target, false), {
      onSuccess: (answer: BulkReportLike | { job: Job }) => {
        onDone();
        setCommand(null);
        check.reset();
        if ('job' in answer) return handOff(answer.job);
        const notes = [
          answer.skipped.length > 0 ? strings.doneSkipped(answer.skipped.length) : null,
          command.text.notice?.(answer) ?? null,
        ].filter((note) => note !== null);
        toast.success(command.text.done(answer.affected.length), {
          ...(notes.length > 0 ? { description: notes.join(' ') } : {}),
        });
      },
      onError: (error) => toast.error(apiErrorMessage(error, m)),
      // A job changes the records later; its end refreshes them (the header's toast).
      onSettled: () => ('ids' in target ? queryClient.invalidateQueries(refresh) : undefined),
    });
  };

  const report = checked && !('job' in checked) ? checked : undefined;
  const jobReport = followed?.item.status === 'succeeded' ? followed : undefined;
  const jobFailed = followed && isFinishedJob(followed.item.status) && !jobReport ? followed.item : undefined;
  const failure = check.error ?? polled.error;
  return {
    command,
    target,
    /** Picked ids: the dry run's report. */
    report,
    /** Every match: the dry-run job while it moves, then its outcome (or why it failed). */
    job: followed?.item,
    jobReport,
    jobFailed,
    checking: checkJobId === null ? check.isPending : !jobReport && !jobFailed,
    /** Why the dry run could not be run, in words (the dialogs load apart from the API's error types). */
    checkError: failure ? apiErrorMessage(failure, m) : null,
    retryCheck: () => command && target && check.mutate(request(command, target, true)),
    running: run.isPending,
    start,
    close,
    confirm,
  };
}

export type BulkRun = ReturnType<typeof useBulkRun>;
