import { type ImportPageMessages, useImportMessages } from './import-messages';
import { isFinishedJob } from '@app/contracts';
import { Alert, Card, CardContent, CardDescription, CardHeader, CardTitle, cn, PageHeader } from '@app/ui';
import { type ReactNode, useId } from 'react';
import { BackLink } from '../../components/back-link';
import { apiErrorMessage } from '../../lib/api-error';
import { JobProgressBar } from '../jobs/job-progress';
import { DryRunSummary } from './dry-run-summary';
import { FileDropZone } from './file-drop-zone';
import { FileRead } from './file-read';
import { ImportUploadError, type ImportChoices } from './import-upload';
import { ImportOptions } from './import-options';
import { ImportRun } from './import-run';
import { UploadError, UploadProgress } from './upload-status';
import { type ImportFlow, useImportFlow } from './use-import-flow';

function Step({
  title,
  description,
  busy = false,
  children,
}: {
  title: string;
  description?: string;
  busy?: boolean;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Card
      aria-labelledby={titleId}
      aria-busy={busy || undefined}
      className={cn('transition-opacity', busy && 'opacity-60')}
    >
      <CardHeader>
        <div>
          <CardTitle id={titleId}>{title}</CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </div>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

const sending = (status: string) => status === 'uploading' || status === 'reading';

/** One sentence per phase for the live region: phases, not every percent, so it is not chatty. */
function announcement(flow: ImportFlow, m: ImportPageMessages): string {
  const t = m.imports;
  if (flow.run) {
    const { status } = flow.run.item;
    if (!isFinishedJob(status)) return t.run.running;
    return status === 'succeeded' ? t.run.done : status === 'failed' ? t.run.failed : t.run.cancelled;
  }
  if (sending(flow.runUpload.status)) return t.run.starting;
  if (flow.dryUpload.status === 'uploading') return t.upload.sending;
  if (flow.dryUpload.status === 'reading') return t.upload.reading;
  const dry = flow.dryStale ? undefined : flow.dry?.item;
  if (dry && !isFinishedJob(dry.status)) return t.upload.checking;
  if (dry?.status === 'succeeded' && dry.import) {
    return t.upload.checked(dry.import.outcomes.create ?? 0, dry.import.outcomes.update ?? 0);
  }
  return '';
}

/** The refusal of the default roles, for the field itself (the alert above says it too). */
function rolesError(flow: ImportFlow): string | undefined {
  if (flow.dryUpload.status !== 'failed' || !(flow.dryUpload.error instanceof ImportUploadError)) return undefined;
  const entry = Object.entries(flow.dryUpload.error.errors).find(([key]) => key.startsWith('defaultRoles'));
  return entry?.[1][0];
}

/** `/users/import` (users.create): choose a file, check it with a dry run, map its columns, import, undo. */
export function ImportPage() {
  const m = useImportMessages();
  const t = m.imports;
  const flow = useImportFlow();
  const { dry, dryStale } = flow;
  const locked = flow.run !== undefined || sending(flow.runUpload.status);
  const change = (patch: Partial<ImportChoices>) => flow.setChoices((prev) => ({ ...prev, ...patch }));
  const dryJob = dryStale ? undefined : dry?.item;
  const ready = dryJob?.status === 'succeeded' && flow.dryUpload.status === 'idle';
  const summary = dry?.item.import;
  // A file refused whole (no e-mail column) still says how it was read, so its columns can be mapped.
  const refused =
    flow.dryUpload.status === 'failed' && flow.dryUpload.error instanceof ImportUploadError
      ? flow.dryUpload.error.file
      : null;
  const readFile = summary?.file ?? refused;
  // An earlier dry run stays on screen, dimmed, while the next one is on its way; after a refusal
  // it stays too, so that the mapping or option that caused it can be changed back.
  const busy = dryStale && flow.dryUpload.status !== 'failed';

  return (
    <>
      <title>{m.app.documentTitle(t.title)}</title>
      <BackLink to="/users" label={t.back} />
      <PageHeader className="mt-3" title={t.title} description={t.subtitle} />
      <p role="status" aria-live="polite" className="sr-only">
        {announcement(flow, m)}
      </p>
      <div className="mt-6 space-y-6">
        <Step title={t.file.title} description={t.file.description}>
          <fieldset disabled={locked} className="grid min-w-0 gap-6 lg:grid-cols-2">
            <legend className="sr-only">{t.file.title}</legend>
            <div className="space-y-4">
              <FileDropZone file={flow.file} onFile={flow.chooseFile} disabled={locked} />
              <UploadProgress state={flow.dryUpload} />
              {flow.dryUpload.status === 'failed' ? (
                <UploadError error={flow.dryUpload.error} title={t.errors.title} />
              ) : null}
              {flow.dryError && !dry ? (
                <Alert tone="danger" title={t.errors.checkFailed}>
                  {apiErrorMessage(flow.dryError, m)}
                </Alert>
              ) : null}
            </div>
            <div>
              <h3 className="mb-3 text-sm font-semibold text-foreground">{t.options.title}</h3>
              <ImportOptions choices={flow.choices} onChange={change} rolesError={rolesError(flow)} />
            </div>
          </fieldset>
        </Step>
        {readFile ? (
          <Step title={t.read.title} description={t.read.description} busy={busy}>
            <FileRead
              file={readFile}
              map={flow.choices.map}
              onMap={(header, field) => change({ map: { ...flow.choices.map, [header]: field } })}
              disabled={locked}
            />
          </Step>
        ) : null}
        {dry ? (
          <Step title={t.summary.title} description={t.summary.description} busy={busy}>
            {dryJob && !isFinishedJob(dryJob.status) ? (
              <div className="space-y-2">
                <p className="text-sm text-muted-foreground">{t.upload.checking}</p>
                <JobProgressBar job={dryJob} />
              </div>
            ) : dry.item.status === 'succeeded' ? (
              <DryRunSummary data={dry} />
            ) : (
              <Alert tone="danger" title={t.errors.checkFailed}>
                {dry.item.error}
              </Alert>
            )}
          </Step>
        ) : null}
        {dry && (ready || locked) ? (
          <Step title={t.run.title}>
            <ImportRun
              dry={dry}
              ready={ready && !locked}
              upload={flow.runUpload}
              run={flow.run}
              onRun={flow.startRun}
              onStartOver={flow.startOver}
            />
          </Step>
        ) : null}
      </div>
    </>
  );
}
