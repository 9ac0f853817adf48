import { type ImportPageMessages, useImportMessages } from './import-messages';
import { type Job, JobAnswerSchema, ProblemSchema } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUrl } from '../../lib/api-url';
import { useTRPC } from '../../lib/trpc';
import { watchJob } from '../jobs/job-watch';

/** A refused undo (409 NOT_UNDOABLE and the like), with the server's sentence. */
export class UndoRefused extends Error {
  override readonly name = 'UndoRefused';
}

/** `POST /api/jobs/{id}/undo` (REST): the undo job, or the server's sentence why not. */
async function postUndo(id: number, fallback: string): Promise<Job> {
  let response: Response;
  try {
    response = await fetch(apiUrl(`/api/jobs/${id}/undo`), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
  } catch {
    throw new UndoRefused(fallback);
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) {
    const answer = JobAnswerSchema.safeParse(body);
    if (answer.success) return answer.data.job;
  }
  const problem = ProblemSchema.safeParse(body);
  throw new UndoRefused(problem.success ? problem.data.detail : fallback);
}

/** Undoes an import: the undo is a job of its own, watched like any job this tab started. */
export function useUndoImport(importId: number) {
  const m = useImportMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => postUndo(importId, m.errors.unexpected),
    onSuccess: (undo) => {
      watchJob(undo.id);
      // The import's own `undo.by` now names this job.
      void queryClient.invalidateQueries(trpc.jobs.show.queryFilter({ id: importId }));
      void queryClient.invalidateQueries(trpc.jobs.list.pathFilter());
    },
  });
}
