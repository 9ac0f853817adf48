import { type AuditAction, type AuditSort, auditListQuery } from '@app/contracts';
import { type ListState, listStateCodec, toDayRange } from '../../lib/resource-list/list-state';

/** The audit list's filters as the URL and the API take them, only the ones in force. */
export interface AuditListFilters {
  action?: AuditAction[];
  /** `YYYY-MM-DD` bounds, whole UTC days. */
  occurred_between?: { from?: string; to?: string };
  ip?: string;
  /** Set by links ("events by this user"), shown as chips. */
  actor_id?: number[];
  target_id?: number;
  user_id?: number;
}

export type AuditListState = ListState<AuditSort, AuditListFilters>;

export const AUDIT_PER_PAGE_OPTIONS: readonly number[] = auditListQuery.perPage.choices ?? [
  auditListQuery.perPage.default,
];

type Parsed = ReturnType<typeof auditListQuery.input.parse>;

function toStateFilters(filters: Parsed['filters']): AuditListFilters {
  const out: AuditListFilters = {};
  if (filters.action) out.action = filters.action.values;
  if (filters.actor_id) out.actor_id = filters.actor_id.values;
  if (filters.target_id) out.target_id = filters.target_id.value;
  if (filters.user_id) out.user_id = filters.user_id.value;
  if (filters.ip) out.ip = filters.ip.value;
  const occurred = toDayRange(filters.occurred_between);
  if (occurred) out.occurred_between = occurred;
  return out;
}

export const AUDIT_LIST_CODEC = listStateCodec<AuditSort, AuditListFilters, typeof auditListQuery>(
  auditListQuery,
  toStateFilters,
);

/** The audit list's URL for a set of filters: what History and the event page link to. */
export const auditListHref = (filters: AuditListFilters): string => {
  const search = AUDIT_LIST_CODEC.toSearch({ ...AUDIT_LIST_CODEC.defaults, filters });
  return search ? `/audit?${search}` : '/audit';
};
