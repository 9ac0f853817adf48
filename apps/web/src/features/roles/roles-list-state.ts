import { rolesListQuery } from '@app/contracts';
import { defineResourceList } from '../../lib/resource-list/define-resource-list';

/**
 * The roles list, declared from its contract. A fixed view (no column or density choices): a
 * handful of narrow columns, and an export with every column, the granted names included, which
 * the table shows only as a count.
 */
export const rolesList = defineResourceList(rolesListQuery);
