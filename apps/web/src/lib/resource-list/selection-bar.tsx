import { Button, cn } from '@app/ui';
import { type LucideIcon, X } from 'lucide-react';
import type { MatchingSelection } from './use-selection';

/** One bulk action the bar offers. */
export interface SelectionAction<A extends string> {
  key: A;
  label: string;
  icon: LucideIcon;
  /** Losing data (or access) is worth a red button. */
  destructive?: boolean;
}

/** A resource's words for its selection bar. */
export interface SelectionBarStrings {
  label: string;
  count: (count: number) => string;
  /** Everything matching is selected ("All 312,480 matching"). */
  allMatching: (total: number, exact: boolean) => string;
  /** Rows unticked from everything matching. */
  except: (count: number) => string;
  page: (count: number) => string;
  selectAllMatching: (total: number, exact: boolean) => string;
  clear: string;
  actionsLabel: string;
}

export interface SelectionBarProps<A extends string> {
  count: number;
  matching: MatchingSelection | null;
  /** Every row of the current page is selected (and there are rows). */
  pageSelected: boolean;
  pageRows: number;
  /** How many rows match the current view. */
  total: number;
  /** False when `total` is a lower bound ("10,000+"). */
  totalExact?: boolean;
  actions: ReadonlyArray<SelectionAction<A>>;
  onAction: (action: A) => void;
  onSelectMatching: () => void;
  onClear: () => void;
  strings: SelectionBarStrings;
}

/**
 * Floats at the bottom while rows are selected, so selecting never shifts the table. Offers to
 * widen a full page to everything matching, and the bulk actions the view and caller allow.
 */
export function SelectionBar<A extends string>(props: SelectionBarProps<A>) {
  const s = props.strings;
  const { count, matching, pageSelected, pageRows, total, actions } = props;
  if (count === 0) return null;
  const offerMatching = !matching && pageSelected && (count < total || !(props.totalExact ?? true));

  return (
    <section
      aria-label={s.label}
      className="pointer-events-none fixed inset-x-0 bottom-3 z-40 flex justify-center px-2 sm:bottom-5"
    >
      <div className="pointer-events-auto flex w-full flex-wrap items-center gap-x-3 gap-y-2 rounded-xl border border-border bg-surface py-2 pr-2 pl-3.5 text-sm shadow-2xl ring-1 ring-black/5 sm:w-auto sm:max-w-full dark:ring-white/5">
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-1" aria-live="polite">
          <span className="rounded-md bg-primary/10 px-2 py-0.5 font-semibold text-primary-text tabular-nums">
            {matching ? s.allMatching(matching.total, matching.exact) : s.count(count)}
          </span>
          {matching ? (
            matching.except.length > 0 ? (
              <span className="text-muted-foreground">{s.except(matching.except.length)}</span>
            ) : null
          ) : offerMatching ? (
            <span className="text-muted-foreground">
              {s.page(pageRows)}{' '}
              <button
                type="button"
                onClick={props.onSelectMatching}
                className="rounded-sm font-medium text-primary-text underline-offset-4 hover:underline"
              >
                {s.selectAllMatching(total, props.totalExact ?? true)}
              </button>
            </span>
          ) : null}
        </div>
        {/* On a phone: count and close on one line, the actions full width below. */}
        <Button
          variant="ghost"
          size="icon-sm"
          className="order-2 self-start sm:order-3 sm:self-auto"
          aria-label={s.clear}
          onClick={props.onClear}
        >
          <X aria-hidden="true" />
        </Button>
        {actions.length > 0 ? (
          <fieldset className="order-3 flex w-full flex-wrap items-center gap-1.5 sm:order-2 sm:w-auto">
            <legend className="sr-only">{s.actionsLabel}</legend>
            {actions.map(({ key, label, icon: Icon, destructive }) => (
              <Button
                key={key}
                variant="secondary"
                size="sm"
                onClick={() => props.onAction(key)}
                className={cn(destructive && 'text-danger hover:bg-danger/10')}
              >
                <Icon aria-hidden="true" />
                {label}
              </Button>
            ))}
          </fieldset>
        ) : null}
      </div>
    </section>
  );
}
