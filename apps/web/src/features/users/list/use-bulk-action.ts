import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { useMessages } from '../../../i18n/messages';
import { apiErrorMessage } from '../../../lib/api-error';
import { useTRPC } from '../../../lib/trpc';
import { bulkCommandText } from './bulk-command-text';
import { type BulkCommand, bulkInput, bulkReportOf } from './user-actions';

/**
 * A bulk action in two steps: opening it runs the dry run, whose report the dialog shows; only
 * the confirmation changes anything. After the real run: a toast, the selection cleared, the
 * list refetched.
 */
export function useBulkAction({ ids, onDone }: { ids: readonly number[]; onDone: () => void }) {
  const m = useMessages();
  const t = m.usersList.bulk;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [action, setAction] = useState<BulkCommand | null>(null);
  // The ids the report was made for: the run acts on exactly these, whatever happens meanwhile.
  const [target, setTarget] = useState<number[]>([]);
  const check = useMutation(trpc.users.bulk.mutationOptions());
  const run = useMutation(trpc.users.bulk.mutationOptions());

  const dryRun = (next: BulkCommand, list: number[]) => check.mutate(bulkInput(next, list, true));

  const start = (next: BulkCommand) => {
    const list = [...ids];
    setAction(next);
    setTarget(list);
    run.reset();
    dryRun(next, list);
  };

  const close = () => {
    if (run.isPending) return;
    setAction(null);
    check.reset();
  };

  const confirm = () => {
    if (!action) return;
    run.mutate(bulkInput(action, target, false), {
      onSuccess: (answer) => {
        const report = bulkReportOf(answer);
        toast.success(bulkCommandText(m, action).done(report.affected.length), {
          ...(report.skipped.length > 0 ? { description: t.doneSkipped(report.skipped.length) } : {}),
        });
        onDone();
        setAction(null);
        check.reset();
      },
      onError: (error) => toast.error(apiErrorMessage(error, m)),
      onSettled: () => queryClient.invalidateQueries(trpc.users.pathFilter()),
    });
  };

  return {
    action,
    count: target.length,
    report: check.data ? bulkReportOf(check.data) : undefined,
    checking: check.isPending,
    checkError: check.error,
    retryCheck: () => action && dryRun(action, target),
    running: run.isPending,
    start,
    close,
    confirm,
  };
}

export type BulkActionFlow = ReturnType<typeof useBulkAction>;
