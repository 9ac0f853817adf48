import { isFinishedJob, type JobShow } from '@app/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTRPCClient } from '../../lib/trpc';
import { watchJob } from '../jobs/job-watch';
import { useJob } from '../jobs/use-job';
import { DEFAULT_CHOICES, type ImportChoices } from './import-upload';
import { newIdempotencyKey, useImportUpload } from './use-import-upload';

/**
 * The Import page's state: the file, the choices, the dry run that follows every change of
 * either, and the real run. A dry run is uploaded as soon as a file is chosen and again after
 * each change (the same File object, re-sent with the new options).
 */
export function useImportFlow() {
  const [file, setFile] = useState<File | null>(null);
  const [choices, setChoices] = useState<ImportChoices>(DEFAULT_CHOICES);
  const [dryJobId, setDryJobId] = useState<number | null>(null);
  const [runJobId, setRunJobId] = useState<number | null>(null);
  // One key per import the user confirms: a click retried after a lost answer reuses it, so the
  // server answers the first job instead of importing the file twice.
  const runKey = useRef<string | null>(null);

  const dryUpload = useImportUpload((job) => setDryJobId(job.id));
  const runUpload = useImportUpload((job) => {
    watchJob(job.id);
    setRunJobId(job.id);
  });
  const dry = useJob(dryJobId);
  const run = useJob(runJobId);
  const client = useTRPCClient();

  // While a new dry run is on its way the last one stays on screen (marked stale), so the
  // mapping just changed does not vanish from under the user's hand.
  const lastDry = useRef<JobShow | undefined>(undefined);
  if (dry.data) lastDry.current = dry.data;
  const latest = useRef<JobShow | undefined>(undefined);
  latest.current = dry.data;

  const startDryRun = dryUpload.start;
  useEffect(() => {
    if (!file) return;
    runKey.current = null;
    // A superseded check still running on the server is worth nothing: stop it.
    const previous = latest.current?.item;
    if (previous && !isFinishedJob(previous.status))
      void client.jobs.cancel.mutate({ id: previous.id }).catch(() => {});
    setDryJobId(null);
    startDryRun({ file, choices, dryRun: true });
  }, [file, choices, startDryRun, client]);

  const chooseFile = useCallback((next: File) => {
    // Another file has other headers: a mapping made for the last one means nothing now.
    lastDry.current = undefined;
    setChoices((prev) => ({ ...prev, map: {} }));
    setFile(next);
  }, []);

  const startRun = useCallback(() => {
    if (!file) return;
    runKey.current ??= newIdempotencyKey();
    runUpload.start({ file, choices, dryRun: false, idempotencyKey: runKey.current });
  }, [file, choices, runUpload.start]);

  const resetRunUpload = runUpload.reset;
  const resetDryUpload = dryUpload.reset;
  const startOver = useCallback(() => {
    resetDryUpload();
    resetRunUpload();
    runKey.current = null;
    lastDry.current = undefined;
    setFile(null);
    setChoices(DEFAULT_CHOICES);
    setDryJobId(null);
    setRunJobId(null);
  }, [resetDryUpload, resetRunUpload]);

  return {
    file,
    chooseFile,
    choices,
    setChoices,
    dryUpload: dryUpload.state,
    dry: dry.data ?? lastDry.current,
    /** The dry run shown is for earlier choices; its successor is on its way. */
    dryStale: dry.data === undefined && lastDry.current !== undefined,
    dryError: dry.error,
    runUpload: runUpload.state,
    startRun,
    run: run.data,
    startOver,
  };
}

export type ImportFlow = ReturnType<typeof useImportFlow>;
