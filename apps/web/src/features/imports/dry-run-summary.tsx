import { type ImportPageMessages, useImportMessages } from './import-messages';
import type { ImportField, ImportSummary, JobShow } from '@app/contracts';
import { buttonClassName, FieldShell, NativeSelect } from '@app/ui';
import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { reportUrl } from '../jobs/job-page';
import { useImportAttributes } from './use-import-attributes';

const outcome = (summary: ImportSummary, key: keyof ImportSummary['outcomes']) => summary.outcomes[key] ?? 0;

/**
 * "3 new users, 2 updated (name ×2, Department ×1), 1 unchanged, 0 skipped, 4 with errors": an
 * attribute's column by its label when `labelOf` knows it.
 */
export function outcomeSentence(
  summary: ImportSummary,
  m: ImportPageMessages,
  labelOf: (field: string, fallback: (field: string) => string) => string = (field, fallback) => fallback(field),
): string {
  const t = m.imports.summary;
  const fieldName = (field: string) => labelOf(field, (f) => m.imports.fields[f as ImportField] ?? f);
  const changes = Object.entries(summary.fields)
    .filter(([, count]) => count > 0)
    .map(([field, count]) => t.fieldCount(fieldName(field), count))
    .join(', ');
  return [
    t.created(outcome(summary, 'create')),
    t.updated(outcome(summary, 'update')) + (changes ? t.fieldChanges(changes) : ''),
    t.unchanged(outcome(summary, 'unchanged')),
    t.skipped(outcome(summary, 'skip')),
    t.errors(outcome(summary, 'error')),
  ].join(', ');
}

const cell = 'px-3 py-2 text-left align-top';

/** The first problem lines (the server sends up to 100), filterable by code, with the full report. */
function ProblemLines({ data }: { data: JobShow }) {
  const m = useImportMessages();
  const t = m.imports.summary;
  const filterId = useId();
  const [code, setCode] = useState('');
  const codes = Object.entries(data.item.counts)
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1]);
  const total = codes.reduce((sum, [, count]) => sum + count, 0);
  const shown = code ? data.problems.filter((problem) => problem.code === code) : data.problems;
  return (
    <div className="space-y-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <FieldShell controlId={filterId} label={t.filter} className="sm:w-80">
          <NativeSelect id={filterId} value={code} onChange={(event) => setCode(event.currentTarget.value)}>
            <option value="">{t.allProblems(total)}</option>
            {codes.map(([value, count]) => (
              <option key={value} value={value}>
                {t.codeOption(m.imports.problemCode(value), count)}
              </option>
            ))}
          </NativeSelect>
        </FieldShell>
        <a href={reportUrl(data.item.id, 'csv')} download className={buttonClassName({ variant: 'secondary' })}>
          <Download aria-hidden="true" />
          {t.report}
        </a>
      </div>
      {total > data.problems.length ? (
        <p className="text-xs text-muted-foreground">{t.problemsShown(data.problems.length, total)}</p>
      ) : null}
      {data.people.allowed ? null : <p className="text-xs text-muted-foreground">{data.people.message}</p>}
      {/* On a phone each line is a card; from 640 px up, a table. */}
      <ul className="divide-y divide-border rounded-lg border border-border sm:hidden">
        {shown.map((problem) => (
          <li key={`${problem.line}-${problem.code}`} className="space-y-0.5 px-3 py-2 text-sm">
            <p className="font-medium text-foreground">
              {t.lineNumber(problem.line)} · {m.imports.problemCode(problem.code)}
            </p>
            {problem.email === null ? null : <p className="break-all text-foreground">{problem.email}</p>}
            <p className="text-muted-foreground">{problem.message}</p>
          </li>
        ))}
        {shown.length === 0 ? <li className="px-3 py-2 text-sm text-muted-foreground">{t.noneOfCode}</li> : null}
      </ul>
      <section
        aria-label={t.problemsCaption}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        className="hidden max-h-96 overflow-auto rounded-lg border border-border focus-visible:outline-2 focus-visible:outline-ring sm:block"
      >
        <table className="w-full text-sm">
          <caption className="sr-only">{t.problemsCaption}</caption>
          <thead className="sticky top-0 bg-surface-muted">
            <tr className="text-xs text-muted-foreground">
              <th scope="col" className={`${cell} font-medium`}>
                {t.line}
              </th>
              {data.people.allowed ? (
                <th scope="col" className={`${cell} font-medium`}>
                  {t.email}
                </th>
              ) : null}
              <th scope="col" className={`${cell} font-medium`}>
                {t.code}
              </th>
              <th scope="col" className={`${cell} font-medium`}>
                {t.message}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {shown.map((problem) => (
              <tr key={`${problem.line}-${problem.code}`}>
                <td className={`${cell} text-muted-foreground tabular-nums`}>{problem.line}</td>
                {data.people.allowed ? <td className={`${cell} break-all text-foreground`}>{problem.email}</td> : null}
                <td className={`${cell} text-foreground`}>{m.imports.problemCode(problem.code)}</td>
                <td className={`${cell} min-w-48 text-muted-foreground`}>{problem.message}</td>
              </tr>
            ))}
            {shown.length === 0 ? (
              <tr>
                <td colSpan={data.people.allowed ? 4 : 3} className={`${cell} text-center text-muted-foreground`}>
                  {t.noneOfCode}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/** Step 3: what the dry run found, in one sentence, then the lines with a problem. */
export function DryRunSummary({ data }: { data: JobShow }) {
  const m = useImportMessages();
  const { labelOf } = useImportAttributes();
  const summary = data.item.import;
  if (!summary) return null;
  const problems = outcome(summary, 'skip') + outcome(summary, 'error');
  return (
    <div className="space-y-5">
      <p className="text-sm font-medium text-foreground">{outcomeSentence(summary, m, labelOf)}</p>
      {problems > 0 || data.problems.length > 0 ? (
        <div className="space-y-3">
          <h3 className="text-sm font-semibold text-foreground">{m.imports.summary.problemsTitle}</h3>
          <ProblemLines data={data} />
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">{m.imports.summary.noProblems}</p>
      )}
    </div>
  );
}
