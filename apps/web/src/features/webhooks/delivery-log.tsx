import { DELIVERED_EVENT_TYPES, DELIVERY_STATUSES, type WebhookDelivery } from '@app/contracts';
import { Button, Card, CardDescription, CardHeader, CardTitle, cn, EmptyState } from '@app/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Check, SearchX, Send } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { useMessages } from '../../i18n/messages';
import { isFiltered, toListInput } from '../../lib/resource-list/list-state';
import { ResourceTable } from '../../lib/resource-list/resource-table';
import { SearchBox } from '../../lib/resource-list/search-box';
import { useListState } from '../../lib/resource-list/use-list-state';
import { useResourceTable } from '../../lib/resource-list/use-resource-table';
import { useTRPC } from '../../lib/trpc';
import { deliveryColumns } from './delivery-columns';
import {
  DELIVERY_LIST_CODEC,
  DELIVERY_PER_PAGE_OPTIONS,
  type DeliveryListFilters,
  type DeliverySort,
} from './delivery-list-state';
import { eventLabel } from './webhook-status';

const VIEW = { visibility: {}, density: 'comfortable' as const };

/** A row of toggle chips for one filter: each pressed value is in force (any of them matches). */
function ToggleChips<V extends string>({
  label,
  options,
  selected,
  onChange,
}: {
  label: string;
  options: ReadonlyArray<{ value: V; label: string }>;
  selected: readonly V[];
  onChange: (next: V[]) => void;
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-1.5">
      <legend className="sr-only">{label}</legend>
      <span aria-hidden="true" className="mr-1 text-xs font-medium text-muted-foreground">
        {label}
      </span>
      {options.map((option) => {
        const pressed = selected.includes(option.value);
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={pressed}
            onClick={() =>
              onChange(
                pressed
                  ? selected.filter((v) => v !== option.value)
                  : options.map((o) => o.value).filter((v) => v === option.value || selected.includes(v)),
              )
            }
            className={cn(
              'inline-flex h-7 items-center gap-1 rounded-full border px-2.5 text-xs font-medium transition-colors',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
              pressed
                ? 'border-primary/40 bg-primary/10 text-foreground'
                : 'border-border bg-surface text-muted-foreground hover:bg-surface-muted hover:text-foreground',
            )}
          >
            {pressed ? <Check aria-hidden="true" className="size-3" /> : null}
            {option.label}
          </button>
        );
      })}
    </fieldset>
  );
}

/**
 * An endpoint's delivery log: newest first, filtered by status and event with chips, found by
 * event id, a page at a time. Its state lives in the URL like every other list's.
 */
export function DeliveryLog({ webhookId, className }: { webhookId: number; className?: string }) {
  const m = useMessages();
  const t = m.webhooks.deliveries;
  const trpc = useTRPC();
  const list = useListState(DELIVERY_LIST_CODEC);
  const { state } = list;
  const query = useQuery(
    trpc.webhooks.deliveries.queryOptions(
      { id: webhookId, ...toListInput(state) },
      {
        placeholderData: keepPreviousData,
        // A delivery on its way changes by itself: look again while the page shows one.
        refetchInterval: (q) =>
          q.state.data?.items.some((d) => d.status === 'pending' || d.status === 'sending') ? 5_000 : false,
      },
    ),
  );
  const columns = useMemo(() => deliveryColumns(m, webhookId), [m, webhookId]);
  const table = useResourceTable<WebhookDelivery, DeliverySort, DeliveryListFilters>({
    rows: query.data?.items,
    pageCount: query.data?.meta.pageCount ?? 0,
    columns,
    list,
    prefs: VIEW,
  });

  // A page that no longer exists (fewer deliveries than the link assumed): go to the last one.
  const pageCount = query.data?.meta.pageCount ?? 0;
  useEffect(() => {
    if (!query.isPlaceholderData && pageCount > 0 && state.page > pageCount) list.setPage(pageCount);
  }, [query.isPlaceholderData, pageCount, state.page, list.setPage]);

  const empty = isFiltered(state) ? (
    <EmptyState
      icon={<SearchX aria-hidden="true" />}
      title={t.noMatchTitle}
      description={t.noMatchDescription}
      action={
        <Button variant="secondary" size="sm" onClick={list.clearFilters}>
          {t.clearFilters}
        </Button>
      }
    />
  ) : (
    <EmptyState icon={<Send aria-hidden="true" />} title={t.emptyTitle} description={t.emptyDescription} />
  );

  return (
    <Card aria-labelledby="delivery-log-title" className={cn('overflow-hidden', className)}>
      <CardHeader className="pb-3">
        <div>
          <CardTitle id="delivery-log-title">{t.title}</CardTitle>
          <CardDescription>{t.description}</CardDescription>
        </div>
      </CardHeader>
      <div className="space-y-3 border-y border-border p-3 sm:px-4">
        <SearchBox value={state.q} onCommit={list.setSearch} strings={t.search} className="w-full sm:w-80" />
        <ToggleChips
          label={t.filterStatus}
          options={DELIVERY_STATUSES.map((status) => ({ value: status, label: t.statuses[status] }))}
          selected={state.filters.status ?? []}
          onChange={(next) => list.patchFilters({ status: next.length > 0 ? next : undefined })}
        />
        <ToggleChips
          label={t.filterEvent}
          options={DELIVERED_EVENT_TYPES.map((event) => ({ value: event, label: eventLabel(event, m) }))}
          selected={state.filters.event_type ?? []}
          onChange={(next) => list.patchFilters({ event_type: next.length > 0 ? next : undefined })}
        />
      </div>
      <ResourceTable
        table={table}
        query={query}
        list={list}
        density={VIEW.density}
        perPageOptions={DELIVERY_PER_PAGE_OPTIONS}
        empty={empty}
        strings={{
          label: t.label,
          loading: t.loading,
          errorTitle: t.errorTitle,
          retry: t.retry,
          pagination: t.pagination,
        }}
      />
    </Card>
  );
}
