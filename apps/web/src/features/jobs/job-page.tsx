import { isFinishedJob, type JobShow } from '@app/contracts';
import {
  Badge,
  Button,
  buttonClassName,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  DescriptionList,
  PageHeader,
} from '@app/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Download, OctagonX } from 'lucide-react';
import { toast } from '../../lib/toast';
import { useMessages } from '../../i18n/messages';
import { apiErrorMessage } from '../../lib/api-error';
import { apiUrl } from '../../lib/api-url';
import { useTRPC } from '../../lib/trpc';
import { useIdParam } from '../../lib/use-id-param';
import { RecordPage } from '../errors/record-page';
import { JOB_TONES, jobTitle, submitterText } from './job-format';
import { JobFigures, JobProgressBar } from './job-progress';
import { JobSkips } from './job-skips';
import { useJobFinishedToast } from './job-watch';
import { JobUndo } from './job-undo';
import { useJob, useJobPace } from './use-job';

/** The report of a job as a file (REST only: the browser downloads it with the session cookie). */
export const reportUrl = (id: number, format: 'csv' | 'json') => apiUrl(`/api/jobs/${id}/report?format=${format}`);

function useCancelJob(id: number) {
  const m = useMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.jobs.cancel.mutationOptions({
      onSuccess: () => toast.success(m.jobs.job.cancelled),
      onError: (error) => toast.error(apiErrorMessage(error, m)),
      onSettled: () =>
        Promise.all([
          queryClient.invalidateQueries(trpc.jobs.show.queryFilter({ id })),
          queryClient.invalidateQueries(trpc.jobs.list.pathFilter()),
        ]),
    }),
  );
}

function JobDetails({ data }: { data: JobShow }) {
  const m = useMessages();
  const t = m.jobs.job;
  const { item: job } = data;
  const pace = useJobPace(data);
  const cancel = useCancelJob(job.id);
  const finished = isFinishedJob(job.status);
  const name = jobTitle(job, m);
  const finishedToast = useJobFinishedToast();
  useEffect(() => {
    finishedToast(job);
  }, [job, finishedToast]);

  return (
    <div className="mt-4 space-y-6">
      <title>{m.app.documentTitle(m.jobs.jobName(job.id, name))}</title>
      <PageHeader
        title={m.jobs.jobName(job.id, name)}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <Badge tone={JOB_TONES[job.status]} dot>
              {m.jobs.statuses[job.status]}
            </Badge>
            {job.dryRun ? <Badge tone="neutral">{m.jobs.dryRunTag}</Badge> : null}
          </span>
        }
        actions={
          // A job that has ended has nothing left to cancel.
          finished ? null : (
            <Button
              variant="secondary"
              className="text-danger hover:bg-danger/10"
              disabled={job.status === 'cancelling' || cancel.isPending}
              unavailableReason={job.actions.cancel.allowed ? null : (job.actions.cancel.message ?? t.cancel)}
              onClick={() => cancel.mutate({ id: job.id })}
            >
              <OctagonX aria-hidden="true" />
              {job.status === 'cancelling' || cancel.isPending ? t.cancelling : t.cancel}
            </Button>
          )
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>{t.progressLabel}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4" aria-live="polite">
          <JobProgressBar job={job} />
          <JobFigures job={job} {...(finished ? {} : { pace })} />
          {finished ? <JobUndo job={job} /> : null}
          {job.error ? (
            <p role="alert" className="rounded-lg border border-danger/30 bg-danger/5 px-3 py-2 text-sm text-danger">
              {job.error}
            </p>
          ) : null}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <div>
            <CardTitle>{t.report}</CardTitle>
            <CardDescription>{t.reportDescription}</CardDescription>
          </div>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          <a href={reportUrl(job.id, 'csv')} download className={buttonClassName({ variant: 'secondary' })}>
            <Download aria-hidden="true" />
            {t.reportCsv}
          </a>
          <a href={reportUrl(job.id, 'json')} download className={buttonClassName({ variant: 'secondary' })}>
            <Download aria-hidden="true" />
            {t.reportJson}
          </a>
        </CardContent>
      </Card>
      {job.progress.skipped + job.progress.failed > 0 ? (
        <Card>
          <CardHeader>
            <div>
              <CardTitle>{t.skippedTitle}</CardTitle>
              <CardDescription>{t.skippedDescription}</CardDescription>
            </div>
          </CardHeader>
          <CardContent>
            <JobSkips data={data} />
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>{t.detailsTitle}</CardTitle>
        </CardHeader>
        <DescriptionList
          items={[
            { term: t.submittedBy, description: submitterText(job, m) },
            { term: t.submitted, description: m.common.dateTime(job.created_at) },
            { term: t.started, description: job.started_at ? m.common.dateTime(job.started_at) : t.none },
            { term: t.finished, description: job.finished_at ? m.common.dateTime(job.finished_at) : t.none },
          ]}
        />
      </Card>
    </div>
  );
}

/** `/jobs/:id`: one background job, live while it runs — progress, rate, time left, Cancel, the report. */
export function JobPage() {
  const id = useIdParam();
  const show = useJob(id);
  const m = useMessages();
  return (
    <RecordPage
      id={id}
      query={show}
      backTo="/jobs"
      strings={m.jobs.job}
      render={(data) => <JobDetails data={data} />}
    />
  );
}
