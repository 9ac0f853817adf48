import { type AttributeValue, attributePath } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { BulkBatchOutcome } from '../../bulk/bulk-declaration.js';
import type { HandlerContext } from '../../context.js';
import type { Database } from '../../db/database.js';
import { insertMany } from '../../db/inserted-ids.js';
import { planAttributeBatch } from '../../domain/attributes.bulk-plan.js';
import { planBatch } from '../../domain/users.bulk-plan.js';
import type { Target } from '../../domain/users.rules.js';
import { auditOriginOf, type ChangeEntry, recordChange, recordChanges } from '../../journal/journal.js';
import { chunks } from '../../repositories/chunks.js';
import { permissionsBeyond } from '../../repositories/held-permissions.js';
import { storedValue, valueColumns } from '../attributes/attributes.repository.js';
import type { BulkAttribute } from './bulk.attributes.js';
import { lockTargets } from './users.batch-repository.js';
import { withValueKeysDeferred } from './users.enum-keys-deferral.js';

/**
 * One batch of a bulk setAttribute (over ids, or a job's chunk) in the caller's transaction: each
 * user meets the edit form's rules (the ceiling, a live account), then the value is written to
 * those it changes in multi-row statements — a DELETE of the old values held, one INSERT of the
 * new, one UPDATE of their optimistic-lock version — and recorded as the edit form records it
 * (`user.update`, `attributes.<key>` before and after), one audit row per set of users whose old
 * value was the same.
 */

const VALUES_INSERT =
  'INSERT INTO user_attribute_values (attribute_id, user_id, text_value, number_value, unique_value) VALUES :rows';

/** What `ids` hold of the attribute now (read under their users' row locks: every writer takes those first). */
async function currentOf(
  db: Database,
  tx: Transaction,
  attributeId: number,
  type: BulkAttribute['definition']['type'],
  ids: readonly number[],
) {
  const out = new Map<number, AttributeValue>();
  for (const part of chunks(ids)) {
    const rows = await db.sequelize.query<{
      user_id: number | string;
      text_value: string | null;
      number_value: number | string | null;
    }>(
      'SELECT user_id, text_value, number_value FROM user_attribute_values WHERE attribute_id = :attributeId AND user_id IN (:ids)',
      { replacements: { attributeId, ids: part }, type: QueryTypes.SELECT, transaction: tx },
    );
    for (const r of rows) {
      const value = storedValue(type, r);
      if (value !== null) out.set(Number(r.user_id), value);
    }
  }
  return out;
}

/** Who holds a unique value now (the unique index answers). */
async function holderOf(db: Database, tx: Transaction, a: BulkAttribute): Promise<number | null> {
  if (!a.definition.unique || a.value === null) return null;
  const { unique_value } = valueColumns(a.value, true);
  const [row] = await db.sequelize.query<{ user_id: number | string }>(
    'SELECT user_id FROM user_attribute_values WHERE attribute_id = :attributeId AND unique_value = :value LIMIT 1',
    { replacements: { attributeId: a.definition.id, value: unique_value }, type: QueryTypes.SELECT, transaction: tx },
  );
  return row ? Number(row.user_id) : null;
}

async function write(
  db: Database,
  tx: Transaction,
  a: BulkAttribute,
  ids: readonly number[],
  had: ReadonlyMap<number, AttributeValue>,
) {
  const now = new Date();
  for (const part of chunks(ids)) {
    const holding = part.filter((id) => had.has(id));
    await withValueKeysDeferred(db, tx, a.definition.id, part, async () => {
      if (holding.length > 0) {
        await db.sequelize.query(
          'DELETE FROM user_attribute_values WHERE attribute_id = :attributeId AND user_id IN (:ids)',
          {
            replacements: { attributeId: a.definition.id, ids: holding },
            transaction: tx,
          },
        );
      }
      if (a.value !== null) {
        const c = valueColumns(a.value, a.definition.unique);
        const rows = part.map((id) => [a.definition.id, id, c.text_value, c.number_value, c.unique_value]);
        await insertMany(db, tx, VALUES_INSERT, rows, rows.length);
      }
    });
    // As the edit form's save: a form opened before this change is now stale.
    await db.sequelize.query('UPDATE users SET lock_version = lock_version + 1, updated_at = :now WHERE id IN (:ids)', {
      replacements: { now, ids: part },
      transaction: tx,
    });
  }
}

/**
 * The audit rows and webhook events: users whose old value was alike share a row; users alone
 * with theirs (clearing an employee number) are written together by `recordChanges`. A request's
 * last row carries the summary `bulk.completed` reports (a job sends one when it ends).
 */
async function record(
  ctx: HandlerContext,
  tx: Transaction,
  a: BulkAttribute,
  changed: readonly number[],
  had: ReadonlyMap<number, AttributeValue>,
  summary: { requested: number; affected: number[]; skipped: ReadonlyArray<{ id: number; code: string }> },
  context: Record<string, unknown>,
) {
  const field = attributePath(a.definition.key);
  const groups = new Map<string, { before: AttributeValue | null; ids: number[] }>();
  for (const id of changed) {
    const before = had.get(id) ?? null;
    const key = JSON.stringify(before);
    const group = groups.get(key);
    if (group) group.ids.push(id);
    else groups.set(key, { before, ids: [id] });
  }
  const inJob = typeof context.job_id === 'number';
  const entry = (ids: number[], before: AttributeValue | null, last: boolean): ChangeEntry => ({
    ...auditOriginOf(ctx),
    action: 'user.update',
    targetType: 'user',
    targetIds: ids,
    changes: { [field]: { before, after: a.value } },
    context: {
      bulk: 'setAttribute',
      attribute: a.definition.key,
      requested: summary.requested,
      ...(a.definition.sensitivity === 'none' ? {} : { sensitivity: { [field]: a.definition.sensitivity } }),
      ...context,
      ...(last && !inJob
        ? {
            bulk_summary: {
              affected_ids: summary.affected,
              skipped: summary.skipped.map(({ id, code }) => ({ id, code })),
            },
          }
        : {}),
    },
  });
  const all = [...groups.values()];
  const shared = all.filter((g) => g.ids.length > 1);
  const alone = all.filter((g) => g.ids.length === 1);
  // The summary rides on a row of its own statement: the last shared group, or the last user alone.
  const closing = shared.length > 0 ? undefined : alone.pop();
  if (alone.length > 0)
    await recordChanges(
      ctx.db,
      tx,
      alone.map((g) => entry(g.ids, g.before, false)),
    );
  const closers = closing ? [closing] : shared;
  for (const [k, g] of closers.entries())
    await recordChange(ctx.db, tx, entry(g.ids, g.before, k === closers.length - 1));
}

export async function runAttributeBatch(
  ctx: HandlerContext,
  tx: Transaction,
  attribute: BulkAttribute,
  ids: readonly number[],
  options: { dryRun: boolean; context?: Record<string, unknown> | undefined; read?: Map<number, Target> | undefined },
): Promise<BulkBatchOutcome> {
  const { db, config } = ctx;
  // A dry run changes nothing, so it locks nothing: a job's dry chunk hands over the rows it read.
  const users = options.dryRun && options.read ? options.read : await lockTargets(db, tx, ids);
  for (const [id, permissions] of await permissionsBeyond(db, tx, ctx.actor, [...users.keys()])) {
    users.set(id, { ...(users.get(id) as Target), permissions });
  }
  const none = new Set<number>();
  const facts = { users, holders: none, adminRoleId: null, admins: none };
  const allowed = planBatch(ctx.actor, { operation: 'setAttribute' }, ids, facts, config.users);
  const current = await currentOf(db, tx, attribute.definition.id, attribute.definition.type, allowed.affected);
  const plan = planAttributeBatch(allowed.affected, {
    label: attribute.definition.label,
    unique: attribute.definition.unique,
    value: attribute.value,
    names: new Map([...users].map(([id, u]) => [id, u.name])),
    current,
    holder: await holderOf(db, tx, attribute),
  });
  const skipped = [...allowed.skipped, ...plan.skipped];
  const affected = [...plan.changed, ...plan.unchanged].sort((x, y) => x - y);
  if (!options.dryRun && plan.changed.length > 0) {
    await write(db, tx, attribute, plan.changed, current);
    const summary = { requested: ids.length, affected, skipped };
    await record(ctx, tx, attribute, plan.changed, current, summary, options.context ?? {});
  }
  return { affected, skipped, unchanged: plan.unchanged };
}
