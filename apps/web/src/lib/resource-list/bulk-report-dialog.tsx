import { ConfirmDialog, ScrollRegion, Spinner } from '@app/ui';
import { TriangleAlert } from 'lucide-react';
import type { ListStrings } from '../../i18n/list-strings';
import type { BulkReportLike, BulkText, RecordName } from './bulk-actions';
import { BulkNotice } from './bulk-notice';
import type { BulkRun } from './use-bulk-run';

type Names = ReadonlyMap<number, RecordName>;
type Strings = ListStrings['bulk'];

// A report can skip thousands; the first ones say enough, the count says the rest.
const SKIPPED_SHOWN = 50;
// Skipped records the list never showed are looked up by id, a few at most.
const LOOKUPS = 10;

const useNoLookup = (_ids: readonly number[]): Names => new Map();

interface DryRunReportProps {
  text: BulkText;
  report: BulkReportLike;
  seen: Names;
  useLookup: (ids: readonly number[]) => Names;
  strings: Strings;
}

function DryRunReport({ text, report, seen, useLookup, strings: t }: DryRunReportProps) {
  const { affected, skipped } = report;
  const unknown = skipped
    .filter((entry) => entry.code !== 'NOT_FOUND' && !seen.has(entry.id))
    .slice(0, LOOKUPS)
    .map((entry) => entry.id);
  const found = useLookup(unknown);
  const nameOf = (id: number) => seen.get(id) ?? found.get(id);
  return (
    <div className="space-y-3" aria-live="polite">
      {affected.length === 0 ? (
        <p className="font-medium text-foreground">{t.nothingToDo}</p>
      ) : (
        <p className="text-foreground">
          <strong className="font-semibold">{text.affected(affected.length)}</strong>;{' '}
          {skipped.length === 0 ? t.noneSkipped : `${t.skipped(skipped.length)}:`}
        </p>
      )}
      <BulkNotice text={text.notice?.(report) ?? null} />
      {skipped.length > 0 ? (
        <ScrollRegion label={t.skippedList} className="max-h-56 rounded-lg border border-border bg-surface-muted/40">
          <ul className="divide-y divide-border">
            {skipped.slice(0, SKIPPED_SHOWN).map((entry) => {
              const record = nameOf(entry.id);
              return (
                <li key={entry.id} className="flex gap-2.5 px-3 py-2">
                  <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning" />
                  <div className="min-w-0">
                    <p className="truncate font-medium text-foreground">
                      {record ? record.name : t.unnamed(entry.id)}
                      {record?.detail ? (
                        <span className="ml-1.5 font-normal text-muted-foreground">{record.detail}</span>
                      ) : null}
                    </p>
                    <p className="text-muted-foreground">{entry.message}</p>
                  </div>
                </li>
              );
            })}
            {skipped.length > SKIPPED_SHOWN ? (
              <li className="px-3 py-2 text-muted-foreground">{t.moreSkipped(skipped.length - SKIPPED_SHOWN)}</li>
            ) : null}
          </ul>
        </ScrollRegion>
      ) : null}
    </div>
  );
}

export interface BulkReportDialogProps {
  flow: Omit<BulkRun, 'start'>;
  /** Names of the records the list showed. */
  seen: Names;
  /** Names for the others, looked up. */
  useLookup: ((ids: readonly number[]) => Names) | undefined;
  strings: Strings;
}

/** Confirms a command over picked records with its dry run's report; nothing changes before "confirm". */
export function BulkReportDialog({ flow, seen, useLookup, strings: t }: BulkReportDialogProps) {
  const { command, target, report } = flow;
  if (!command || !target || !('ids' in target)) return null;
  const count = target.ids.length;
  const affected = report?.affected.length ?? 0;
  const { text } = command;

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : flow.close())}
      title={text.title(count)}
      description={text.description}
      // A whole sentence in every state: a verb such as "Give admin to" needs its count.
      confirmLabel={
        report
          ? affected === 0
            ? t.nothingButton
            : text.confirm(affected)
          : flow.checkError
            ? text.confirm(count)
            : t.checkingButton
      }
      cancelLabel={t.cancel}
      tone={command.destructive ? 'danger' : 'primary'}
      pending={flow.running}
      confirmDisabled={!report || affected === 0 || flow.checking}
      onConfirm={flow.confirm}
    >
      {flow.checking ? (
        <p role="status" className="flex items-center gap-2 text-muted-foreground">
          <Spinner />
          {t.checking}
        </p>
      ) : flow.checkError ? (
        <div role="alert" className="rounded-lg border border-danger/30 bg-danger/5 px-3 py-2.5">
          <p className="font-medium text-danger">{t.checkFailed}</p>
          <p className="mt-0.5 text-muted-foreground">{flow.checkError}</p>
          <button
            type="button"
            onClick={() => flow.retryCheck()}
            className="mt-2 text-sm font-medium text-foreground underline underline-offset-4"
          >
            {t.retry}
          </button>
        </div>
      ) : report ? (
        <DryRunReport text={text} report={report} seen={seen} useLookup={useLookup ?? useNoLookup} strings={t} />
      ) : null}
    </ConfirmDialog>
  );
}
