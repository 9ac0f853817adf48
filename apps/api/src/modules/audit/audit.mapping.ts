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

/**
 * `target_id` and `user_id` (actor or target) are read as branches driven by `audit_targets`'
 * time index (`audit.reads.ts`), not as conditions on the events.
 */
const readAsBranches: FilterHandler = () => null;

/**
 * Events that changed the attribute `key`: the ids `audit_attributes` holds for it (its primary
 * key's range). The key passed the contract's key pattern and is escaped besides.
 */
const changedAttribute: FilterHandler = (value, sql) => {
  if (value.kind !== 'exact') return null;
  const key = sql.db.sequelize.escape(String(value.value));
  return literal(`\`AuditLog\`.\`id\` IN (SELECT audit_id FROM audit_attributes WHERE attribute_key = ${key})`);
};

/** How the audit list query of the contracts maps onto `audit_logs`. */
export const auditMapping: ResourceMapping<AuditSort, AuditFilterName> = {
  alias: 'AuditLog',
  search: [],
  sorts: { id: 'id', occurred_at: 'created_at' },
  filters: {
    actor_id: byKind('actor_id'),
    action: byKind('action'),
    target_id: readAsBranches,
    user_id: readAsBranches,
    occurred_between: byKind('created_at', toDate),
    ip: byKind('ip'),
    attribute: changedAttribute,
  },
};
