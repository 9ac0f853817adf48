import { AUDIT_COLUMN_KEYS, type AuditColumnKey, auditListQuery } from '@app/contracts';
import { defineResourceList, type FiltersOf } from '../../lib/resource-list/define-resource-list';

/** The link to the event: hiding it would leave rows nobody can open. */
export const AUDIT_LOCKED_COLUMNS: ReadonlySet<AuditColumnKey> = new Set<AuditColumnKey>(['occurred_at']);

/** The audit log's list, declared from its contract. */
export const auditList = defineResourceList(auditListQuery, {
  storagePrefix: 'audit_table',
  columns: AUDIT_COLUMN_KEYS,
  locked: AUDIT_LOCKED_COLUMNS,
});

export type AuditListFilters = FiltersOf<typeof auditList>;

/** The audit list's URL for a set of filters: what History and the event page link to. */
export const auditListHref = (filters: AuditListFilters): string => {
  const search = auditList.codec.toSearch({ ...auditList.codec.defaults, filters });
  return search ? `/audit?${search}` : '/audit';
};

/** What identity providers did: the changes that came in over SCIM (the tokens page links here too). */
export const SCIM_CHANGES_HREF = auditListHref({ via: 'scim' });
