import { JOB_STATUSES, type JobsListResult } from '@app/contracts';
import { PageHeader } from '@app/ui';
import { ListChecks } from 'lucide-react';
import { useMemo } from 'react';
import { useLocation } from 'react-router';
import { useMessages } from '../../i18n/messages';
import { ResourceListView } from '../../lib/resource-list/resource-list-view';
import { ToggleChips } from '../../lib/resource-list/toggle-chips';
import { useResourceList } from '../../lib/resource-list/use-resource-list';
import { useTRPC } from '../../lib/trpc';
import { isLiveJob } from './job-format';
import { jobsColumns } from './jobs-columns';
import { jobsList } from './jobs-list-state';

const rowsOf = (data: JobsListResult) => data.rows;

/**
 * `/jobs`: the caller's background jobs (everyone's with jobs.view), newest first, filtered by
 * status; dry runs in place of the real runs when asked.
 */
export function JobsListPage() {
  const m = useMessages();
  const t = m.jobs;
  const jobs = useJobsList();
  const { state, list } = jobs;
  const dryRuns = state.filters.dry_run === true;

  return (
    <div>
      <title>{m.app.documentTitle(t.title)}</title>
      <PageHeader title={t.title} description={t.subtitle} />
      <ResourceListView
        className="mt-6"
        controller={jobs}
        strings={t}
        filterBar={
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <ToggleChips
              label={t.filterStatus}
              options={JOB_STATUSES.map((status) => ({ value: status, label: t.statuses[status] }))}
              selected={state.filters.status ?? []}
              onChange={(next) => list.patchFilters({ status: next.length > 0 ? next : undefined })}
            />
            {/* Dry runs change nobody: listed only when asked, in place of the real runs. */}
            <ToggleChips
              label={t.filterRuns}
              options={[{ value: 'dry', label: t.dryRunsOnly }]}
              selected={dryRuns ? ['dry'] : []}
              onChange={(next) => list.patchFilters({ dry_run: next.length > 0 ? true : undefined })}
            />
          </div>
        }
        empty={{ icon: <ListChecks aria-hidden="true" /> }}
      />
    </div>
  );
}

/** The list's controller: its columns follow whether it shows dry runs (as the URL says). */
function useJobsList() {
  const m = useMessages();
  const trpc = useTRPC();
  const { search } = useLocation();
  const dryRuns = useMemo(() => jobsList.codec.parse(search).filters.dry_run === true, [search]);
  const columns = useMemo(() => jobsColumns(m, dryRuns), [m, dryRuns]);
  const jobs = useResourceList(jobsList, {
    query: (input) =>
      trpc.jobs.list.queryOptions(input, {
        // A job on its way moves by itself: look again while the page shows one.
        refetchInterval: (q) => (q.state.data && rowsOf(q.state.data).some(isLiveJob) ? 2_000 : false),
      }),
    rows: rowsOf,
    columns,
  });
  return jobs;
}
