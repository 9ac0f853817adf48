import type { Job } from '@app/contracts';
import { type ComponentType, lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import type { ListStrings } from '../../i18n/list-strings';
import {
  type BulkAction,
  type BulkAskProps,
  type BulkReportLike,
  offeredBulkActions,
  type RecordName,
  type ResourceBulkOptions,
} from './bulk-actions';
import { type ListState, toListInput } from './list-state';
import { SelectionBar, type SelectionBarProps } from './selection-bar';
import { type RunningCommand, useBulkRun } from './use-bulk-run';
import type { Selection } from './use-selection';

/** What the bulk part reads of the list it sits on. */
export interface BulkHost<Row, S extends string, F extends object, Data> {
  state: ListState<S, F>;
  selection: Selection;
  data: Data | undefined;
  rows: Row[] | undefined;
}

/** The selection bar as the view draws it, less what the bulk part adds. */
export type SelectionBarBase = Omit<SelectionBarProps<string>, 'actions' | 'onAction'>;

/** A list's bulk actions bound to its state: whether any is offered, and the bar with its dialogs. */
export interface BoundBulk {
  offers: boolean;
  render: (props: { bar: SelectionBarBase; strings: ListStrings }) => ReactNode;
}

type Answer = BulkReportLike | { job: Job };

// The dialogs load when an action is first taken: a list's own bundle stays within its budget.
const BulkReportDialog = lazy(() => import('./bulk-report-dialog').then((m) => ({ default: m.BulkReportDialog })));
const BulkJobDialog = lazy(() => import('./bulk-job-dialog').then((m) => ({ default: m.BulkJobDialog })));

/** Binds a resource's declared bulk actions to its list (the controller does, on every render). */
export function bindBulk<Op, Row extends { id: number }, S extends string, F extends object, Data, A extends Answer, E>(
  options: ResourceBulkOptions<Op, Row, ListState<S, F>, Data, F, A, E>,
  host: BulkHost<Row, S, F, Data>,
): BoundBulk {
  const offered = offeredBulkActions(options.declaration.actions, host.state, options.can);
  return {
    offers: offered.length > 0,
    render: ({ bar, strings }) => (
      <ResourceBulk options={options} host={host} offered={offered} bar={bar} strings={strings} />
    ),
  };
}

/** The names of the rows the list showed, kept while it is open: a report names whom it skipped. */
function useSeenNames<Row extends { id: number }>(rows: Row[] | undefined, of: (row: Row) => RecordName) {
  const seen = useRef(new Map<number, RecordName>());
  useEffect(() => {
    for (const row of rows ?? []) seen.current.set(row.id, of(row));
  }, [rows, of]);
  return seen.current;
}

interface ResourceBulkProps<Op, Row, S extends string, F extends object, Data, A, E> {
  options: ResourceBulkOptions<Op, Row, ListState<S, F>, Data, F, A, E>;
  host: BulkHost<Row, S, F, Data>;
  offered: ReadonlyArray<BulkAction<Op, ListState<S, F>, Data>>;
  bar: SelectionBarBase;
  strings: ListStrings;
}

/**
 * The selection bar's actions and everything they open: the step that asks for what a command
 * needs, then the dry run — a report for picked rows, a followed job for every match — and the
 * confirmed run. Which of the two is the selection's choice, never the page's.
 */
function ResourceBulk<Op, Row extends { id: number }, S extends string, F extends object, Data, A extends Answer, E>({
  options,
  host,
  offered,
  bar,
  strings,
}: ResourceBulkProps<Op, Row, S, F, Data, A, E>) {
  const { declaration, submit, refresh } = options;
  const { selection, state } = host;
  const t = strings.bulk;
  const seen = useSeenNames(host.rows, declaration.names.of);
  const flow = useBulkRun({ submit, refresh, jobs: declaration.jobs, strings: t, onDone: selection.clear });
  const [asking, setAsking] = useState<{ Ask: ComponentType<BulkAskProps<Op, Data>>; destructive: boolean } | null>(
    null,
  );

  const run = (command: RunningCommand<Op>) => {
    const { matching } = selection;
    if (!matching) return flow.start(command, { ids: [...selection.ids] });
    // "All N matching" is acted on as the query itself (a background job), whatever N is.
    const { q, filters } = toListInput(state);
    flow.start(command, {
      selection: { query: { ...(q ? { q } : {}), filters }, except: [...matching.except] },
      matched: { count: matching.total, exact: matching.exact },
    });
  };

  const onAction = (key: string) => {
    const action = offered.find((candidate) => candidate.key === key);
    if (!action) return;
    const destructive = action.destructive ?? false;
    if ('ask' in action) setAsking({ Ask: action.ask, destructive });
    else run({ ...action.command, destructive });
  };

  const Ask = asking?.Ask;
  return (
    <>
      <SelectionBar
        {...bar}
        actions={offered.map(({ key, label, icon, destructive }) => ({ key, label, icon, destructive }))}
        onAction={onAction}
      />
      {Ask && asking ? (
        // An ask step may load when first needed (the role picker does).
        <Suspense fallback={null}>
          <Ask
            count={selection.matching ? selection.matching.total : selection.ids.length}
            data={host.data}
            onClose={() => setAsking(null)}
            onChoose={(command) => {
              setAsking(null);
              run({ ...command, destructive: asking.destructive });
            }}
          />
        </Suspense>
      ) : null}
      <Suspense fallback={null}>
        {flow.command && flow.target && 'ids' in flow.target ? (
          <BulkReportDialog flow={flow} seen={seen} useLookup={declaration.names.useLookup} strings={t} />
        ) : null}
        {flow.command && flow.target && 'selection' in flow.target ? (
          <BulkJobDialog flow={flow} jobs={declaration.jobs} strings={t} />
        ) : null}
      </Suspense>
    </>
  );
}
