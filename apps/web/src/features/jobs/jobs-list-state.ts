import { jobsListQuery } from '@app/contracts';
import { defineResourceList } from '../../lib/resource-list/define-resource-list';

/** The jobs list, declared from its contract: a fixed view (every column), its state in the URL. */
export const jobsList = defineResourceList(jobsListQuery);
