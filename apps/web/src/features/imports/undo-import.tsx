import { useImportMessages } from './import-messages';
import type { Job } from '@app/contracts';
import { Alert, Button, buttonClassName, ConfirmDialog } from '@app/ui';
import { Undo2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../lib/toast';
import { apiErrorMessage } from '../../lib/api-error';
import { canUndo } from '../jobs/job-undo';
import { useUndoImport } from './use-undo-import';

/** "Undo this import", asked first; once undone, a link to the undo job's page. */
export function UndoImport({ job }: { job: Job }) {
  const m = useImportMessages();
  const t = m.imports.undo;
  const [open, setOpen] = useState(false);
  const undo = useUndoImport(job.id);
  const undoId = undo.data?.job.id ?? job.undo?.by ?? null;

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
  return (
    <div className="space-y-3">
      {undo.isError ? <Alert tone="danger">{apiErrorMessage(undo.error, m)}</Alert> : null}
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <Button variant="secondary" onClick={() => setOpen(true)}>
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
        description={t.description}
        confirmLabel={t.confirm}
        cancelLabel={m.common.cancel}
        tone="danger"
        pending={undo.isPending}
        onConfirm={() =>
          undo.mutate(
            { id: job.id },
            {
              onSuccess: () => toast.success(t.started),
              onSettled: () => setOpen(false),
            },
          )
        }
      />
    </div>
  );
}
