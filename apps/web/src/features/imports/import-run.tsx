import { useImportMessages } from './import-messages';
import { isFinishedJob, type JobShow } from '@app/contracts';
import { Alert, Button, buttonClassName } from '@app/ui';
import { Upload } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { JobFigures, JobProgressBar } from '../jobs/job-progress';
import { JobUndo } from '../jobs/job-undo';
import { useJobFinishedToast } from '../jobs/job-watch';
import { useJobPace } from '../jobs/use-job';
import { outcomeSentence } from './dry-run-summary';
import { useImportAttributes } from './use-import-attributes';
import { UploadError, UploadProgress } from './upload-status';
import type { UploadState } from './use-import-upload';

/** How many users the real run would add or update, by the dry run's count. */
export const wouldImport = (dry: JobShow | undefined): number =>
  (dry?.item.import?.outcomes.create ?? 0) + (dry?.item.import?.outcomes.update ?? 0);

/** The real run while it moves (the jobs feature's bar and figures), then its result and Undo. */
function RunResult({ data, onStartOver }: { data: JobShow; onStartOver: () => void }) {
  const m = useImportMessages();
  const { labelOf } = useImportAttributes();
  const t = m.imports.run;
  const { item: job } = data;
  const pace = useJobPace(data);
  const finished = isFinishedJob(job.status);
  const finishedToast = useJobFinishedToast();
  useEffect(() => {
    finishedToast(job);
  }, [job, finishedToast]);

  return (
    <div className="space-y-4">
      {finished ? null : <p className="text-sm text-muted-foreground">{t.running}</p>}
      <JobProgressBar job={job} />
      <JobFigures job={job} {...(finished ? {} : { pace })} />
      {finished ? (
        <Alert
          tone={job.status === 'succeeded' ? 'success' : job.status === 'failed' ? 'danger' : 'info'}
          role="none"
          title={job.status === 'succeeded' ? t.done : job.status === 'failed' ? t.failed : t.cancelled}
        >
          {job.error ?? (job.import ? outcomeSentence(job.import, m, labelOf) : null)}
        </Alert>
      ) : null}
      {finished ? <JobUndo job={job} /> : null}
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <Link to={`/jobs/${job.id}`} className={buttonClassName({ variant: 'secondary' })}>
          {t.viewJob}
        </Link>
        <Link to="/users" className={buttonClassName({ variant: 'secondary' })}>
          {t.viewUsers}
        </Link>
        {finished ? (
          <Button variant="ghost" onClick={onStartOver}>
            {t.startOver}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** Step 4: the button that imports for real, then the run itself. */
export function ImportRun({
  dry,
  ready,
  upload,
  run,
  onRun,
  onStartOver,
}: {
  dry: JobShow | undefined;
  /** The dry run shown is the current choices' and has finished: its count can be trusted. */
  ready: boolean;
  upload: UploadState;
  run: JobShow | undefined;
  onRun: () => void;
  onStartOver: () => void;
}) {
  const m = useImportMessages();
  const t = m.imports.run;
  if (run) return <RunResult data={run} onStartOver={onStartOver} />;
  const count = wouldImport(dry);
  const sending = upload.status === 'uploading' || upload.status === 'reading';
  return (
    <div className="space-y-4">
      {upload.status === 'failed' ? <UploadError error={upload.error} title={t.failed} /> : null}
      <UploadProgress state={upload} />
      {ready && count === 0 ? <p className="text-sm text-muted-foreground">{t.nothing}</p> : null}
      <Button size="lg" disabled={!ready || count === 0} loading={sending} onClick={onRun}>
        <Upload aria-hidden="true" />
        {t.importN(count)}
      </Button>
    </div>
  );
}
