import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';
import { watchJob } from '../jobs/job-watch';

/**
 * Undoes an import (`imports.undo`, REST `POST /jobs/{id}/undo`): the undo is a job of its own,
 * watched like any job this tab started. A refusal (409 NOT_UNDOABLE and the like) carries the
 * server's sentence.
 */
export function useUndoImport(importId: number) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.imports.undo.mutationOptions({
      onSuccess: ({ job }) => {
        watchJob(job.id);
        // The import's own `undo.by` now names this job.
        void queryClient.invalidateQueries(trpc.jobs.show.queryFilter({ id: importId }));
        void queryClient.invalidateQueries(trpc.jobs.list.pathFilter());
      },
    }),
  );
}
