import { Button, cn } from '@app/ui';
import { Power, PowerOff, RotateCcw, Trash2, X, CircleX } from 'lucide-react';
import { useMessages } from '../../../i18n/messages';
import type { MatchingSelection } from '../../../lib/resource-list/use-selection';
import { DESTRUCTIVE_ACTIONS, type UserAction } from './user-actions';

const ICONS: Record<UserAction, typeof Power> = {
  activate: Power,
  deactivate: PowerOff,
  delete: Trash2,
  restore: RotateCcw,
  forceDelete: CircleX,
};

export interface UsersBulkBarProps {
  count: number;
  matching: MatchingSelection | null;
  /** Every row of the current page is selected (and there are rows). */
  pageSelected: boolean;
  pageRows: number;
  /** How many users match the current view. */
  total: number;
  /** False when `total` is a lower bound ("10,000+"). */
  totalExact?: boolean;
  actions: readonly UserAction[];
  onAction: (action: UserAction) => void;
  onSelectMatching: () => void;
  selectingMatching: boolean;
  onClear: () => void;
}

/**
 * Floats at the bottom while rows are selected, so selecting never shifts the table. Offers to
 * widen a full page to everything matching, and the bulk actions the view and caller allow.
 */
export function UsersBulkBar(props: UsersBulkBarProps) {
  const m = useMessages();
  const s = m.usersList.selection;
  const t = m.usersList.bulk;
  const { count, matching, pageSelected, pageRows, total, actions } = props;
  if (count === 0) return null;
  const offerMatching = !matching && pageSelected && count < total;

  return (
    <section
      aria-label={s.label}
      className="pointer-events-none fixed inset-x-0 bottom-3 z-40 flex justify-center px-2 sm:bottom-5"
    >
      <div className="pointer-events-auto flex w-full flex-wrap items-center gap-x-3 gap-y-2 rounded-xl border border-border bg-surface py-2 pr-2 pl-3.5 text-sm shadow-2xl ring-1 ring-black/5 sm:w-auto sm:max-w-full dark:ring-white/5">
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-1" aria-live="polite">
          <span className="rounded-md bg-primary/10 px-2 py-0.5 font-semibold text-primary tabular-nums">
            {s.count(count)}
          </span>
          {matching ? (
            <span className="text-muted-foreground">
              {matching.truncated ? s.truncated(matching.count, matching.total) : s.allMatching}
            </span>
          ) : offerMatching ? (
            <span className="text-muted-foreground">
              {s.page(pageRows)}{' '}
              <button
                type="button"
                onClick={props.onSelectMatching}
                disabled={props.selectingMatching}
                className="rounded-sm font-medium text-primary underline-offset-4 hover:underline disabled:opacity-60"
              >
                {props.selectingMatching ? s.selecting : s.selectAllMatching(total, props.totalExact ?? true)}
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
            <legend className="sr-only">{t.label}</legend>
            {actions.map((action) => {
              const Icon = ICONS[action];
              return (
                <Button
                  key={action}
                  variant="secondary"
                  size="sm"
                  onClick={() => props.onAction(action)}
                  className={cn(DESTRUCTIVE_ACTIONS.has(action) && 'text-danger hover:bg-danger/10')}
                >
                  <Icon aria-hidden="true" />
                  {t[action]}
                </Button>
              );
            })}
          </fieldset>
        ) : null}
      </div>
    </section>
  );
}
