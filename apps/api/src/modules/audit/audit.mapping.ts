import type { AuditFilterName, AuditSort } from '@app/contracts';
import { literal } from 'sequelize';
import { byKind, type FilterHandler, type ResourceMapping, toDate } from '../../query/list-query-engine.js';

/** Events naming any of `ids` as a target: a range of `audit_targets`' primary key per id. */
export function targetedIn(ids: readonly number[]) {
  const list = ids.map((id) => Number(id)).filter((id) => Number.isSafeInteger(id) && id > 0);
  return literal(
    `\`AuditLog\`.\`id\` IN (SELECT audit_id FROM audit_targets WHERE target_id IN (${list.join(', ') || 'NULL'}))`,
  );
}

const targetId: FilterHandler = (value) => (value.kind === 'exact' ? targetedIn([Number(value.value)]) : null);

/** `user_id` (actor or target) is read as two branches of one page (`audit.reads.ts`), not as a condition. */
const readAsBranches: FilterHandler = () => null;

/** How the audit list query of the contracts maps onto `audit_logs`. */
export const auditMapping: ResourceMapping<AuditSort, AuditFilterName> = {
  alias: 'AuditLog',
  search: [],
  sorts: { id: 'id', occurred_at: 'created_at' },
  filters: {
    actor_id: byKind('actor_id'),
    action: byKind('action'),
    target_id: targetId,
    user_id: readAsBranches,
    occurred_between: byKind('created_at', toDate),
    ip: byKind('ip'),
  },
};
