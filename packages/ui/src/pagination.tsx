import { type ReactNode, useId } from 'react';
import { Button } from './button';
import { cn } from './cn';
import { ChevronLeftIcon, ChevronRightIcon, ChevronsLeftIcon, ChevronsRightIcon } from './icons';
import { NativeSelect } from './native-select';

export interface PaginationLabels {
  /** Accessible name of the page navigation. */
  navigation: string;
  perPage: string;
  /** "Showing 11–20 of 250" ("of 10,000+" when `exact` is false); from and to are 0 when there is nothing to show. */
  range: (from: number, to: number, total: number, exact: boolean) => ReactNode;
  /** "Page 2 of 25" ("of 1,000+" when `exact` is false). */
  page: (page: number, pageCount: number, exact: boolean) => ReactNode;
  first: string;
  previous: string;
  next: string;
  last: string;
}

export interface PaginationProps {
  page: number;
  pageCount: number;
  perPage: number;
  total: number;
  /** False when `total` is a lower bound: the last page is unknown, so there is no "last page" button. */
  totalExact?: boolean;
  perPageOptions: readonly number[];
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: number) => void;
  labels: PaginationLabels;
  className?: string;
}

export function Pagination({
  page,
  pageCount,
  perPage,
  total,
  totalExact = true,
  perPageOptions,
  onPageChange,
  onPerPageChange,
  labels,
  className,
}: PaginationProps) {
  const perPageId = useId();
  const from = total === 0 ? 0 : Math.min((page - 1) * perPage + 1, total);
  const to = Math.min(page * perPage, total);
  const last = Math.max(pageCount, 1);
  const options = perPageOptions.includes(perPage)
    ? perPageOptions
    : [...perPageOptions, perPage].sort((a, b) => a - b);
  // Never disabled while a page loads: disabling the focused button would drop keyboard focus.
  const atStart = page <= 1;
  const atEnd = page >= last;

  return (
    <div className={cn('flex flex-wrap items-center justify-between gap-x-6 gap-y-3 text-sm', className)}>
      <p aria-live="polite" className="text-muted-foreground tabular-nums">
        {labels.range(from, to, total, totalExact)}
      </p>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
        <div className="flex items-center gap-2 text-muted-foreground">
          <label htmlFor={perPageId} className="whitespace-nowrap">
            {labels.perPage}
          </label>
          <NativeSelect
            id={perPageId}
            value={perPage}
            onChange={(event) => onPerPageChange(Number(event.target.value))}
            className="w-[4.75rem]"
          >
            {options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </NativeSelect>
        </div>
        <nav aria-label={labels.navigation} className="flex items-center gap-1">
          <span className="mr-2 whitespace-nowrap text-muted-foreground tabular-nums">
            {labels.page(Math.min(page, last), last, totalExact)}
          </span>
          <Button
            variant="secondary"
            size="icon-sm"
            aria-label={labels.first}
            disabled={atStart}
            onClick={() => onPageChange(1)}
          >
            <ChevronsLeftIcon />
          </Button>
          <Button
            variant="secondary"
            size="icon-sm"
            aria-label={labels.previous}
            disabled={atStart}
            onClick={() => onPageChange(Math.min(page - 1, last))}
          >
            <ChevronLeftIcon />
          </Button>
          <Button
            variant="secondary"
            size="icon-sm"
            aria-label={labels.next}
            disabled={atEnd}
            onClick={() => onPageChange(page + 1)}
          >
            <ChevronRightIcon />
          </Button>
          {totalExact ? (
            <Button
              variant="secondary"
              size="icon-sm"
              aria-label={labels.last}
              disabled={atEnd}
              onClick={() => onPageChange(last)}
            >
              <ChevronsRightIcon />
            </Button>
          ) : null}
        </nav>
      </div>
    </div>
  );
}
