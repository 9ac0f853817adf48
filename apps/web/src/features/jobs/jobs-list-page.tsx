import { JOB_STATUSES, type JobsListResult } from '@app/contracts';
import { PageHeader } from '@app/ui';
import { ListChecks } from 'lucide-react';
import { useMemo } from 'react';
import { useMessages } from '../../i18n/messages';
import { ResourceListView } from '../../lib/resource-list/resource-list-view';
import { ToggleChips } from '../../lib/resource-list/toggle-chips';
import { useResourceList } from '../../lib/resource-list/use-resource-list';
import { useTRPC } from '../../lib/trpc';
import { isLiveJob } from './job-format';
import { jobsColumns } from './jobs-columns';
import { jobsList } from './jobs-list-state';

const rowsOf = (data: JobsListResult) => data.rows;

/** `/jobs`: the caller's background jobs (everyone's with jobs.view), newest first, filtered by status. */
export function JobsListPage() {
  const m = useMessages();
  const t = m.jobs;
  const trpc = useTRPC();
  const columns = useMemo(() => jobsColumns(m), [m]);
  const jobs = useResourceList(jobsList, {
    query: (input) =>
      trpc.jobs.list.queryOptions(input, {
        // A job on its way moves by itself: look again while the page shows one.
        refetchInterval: (q) => (q.state.data && rowsOf(q.state.data).some(isLiveJob) ? 2_000 : false),
      }),
    rows: rowsOf,
    columns,
  });
  const { state, list } = jobs;

  return (
    <div>
      <title>{m.app.documentTitle(t.title)}</title>
      <PageHeader title={t.title} description={t.subtitle} />
      <ResourceListView
        className="mt-6"
        controller={jobs}
        strings={t}
        filterBar={
          <ToggleChips
            label={t.filterStatus}
            options={JOB_STATUSES.map((status) => ({ value: status, label: t.statuses[status] }))}
            selected={state.filters.status ?? []}
            onChange={(next) => list.patchFilters({ status: next.length > 0 ? next : undefined })}
          />
        }
        empty={{ icon: <ListChecks aria-hidden="true" /> }}
      />
    </div>
  );
}
