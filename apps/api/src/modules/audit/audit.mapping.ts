import type { AuditFilterName, AuditSort } from '@app/contracts';
import { literal } from 'sequelize';
import type { Database } from '../../db/database.js';
import { byKind, type FilterHandler, type ResourceMapping, toDate } from '../../query/list-query-engine.js';

/** Events naming any of `ids` as a target: a range of `audit_targets`' primary key per id. */
export function targetedIn(ids: readonly number[]) {
  const list = ids.map((id) => Number(id)).filter((id) => Number.isSafeInteger(id) && id > 0);
  return literal(
    `\`AuditLog\`.\`id\` IN (SELECT audit_id FROM audit_targets WHERE target_id IN (${list.join(', ') || 'NULL'}))`,
  );
}

/**
 * `target_id` and `user_id` (actor or target), and `attribute`, are read as branches driven by
 * `audit_targets`' and `audit_attributes`' time-ordered keys (`audit.reads.ts`), not as conditions
 * on the events.
 */
const readAsBranches: FilterHandler = () => null;

/** Events that changed the custom attribute `key` (escaped by the driver): a range of `audit_attributes`' key. */
export function changedIn(db: Database, key: string) {
  const escaped = db.sequelize.escape(key);
  return literal(`\`AuditLog\`.\`id\` IN (SELECT audit_id FROM audit_attributes WHERE attribute_key = ${escaped})`);
}

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
    // A range of `audit_logs_via (via, created_at)` (migration 0030), newest first.
    via: byKind('via'),
    attribute: readAsBranches,
  },
};
