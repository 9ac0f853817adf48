import { type Transaction, UniqueConstraintError } from 'sequelize';
import { RetryTransaction } from '../../db/transaction.js';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { sqlDate } from '../../db/sql-date.js';
import { loadRoleGrants } from '../../repositories/role-grants.js';
import { jobActor } from '../../jobs/job-actor.js';
import { recordJobEnd } from '../../jobs/job-end.js';
import { type JobRow, parseJson, type UndoJobParams, type UndoJobState } from '../../jobs/job-rows.js';
import type { JobKindRunner } from '../../jobs/runner.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import { withTriggersDeferred } from '../../db/trigger-deferral.js';
import { revokeCredentials, userStateBlocks } from '../users/users.batch-repository.js';
import { statsBlock, withStatsDeferred } from '../users/users.stats-deferral.js';
import { importChangesAfter } from './imports.undo-repository.js';
import { updateAccount } from './imports.accounts.js';
import type { HandlerContext } from '../../context.js';
import type { AttributeDefinition } from '../attributes/attributes.repository.js';
import { storeValues } from './import.attributes.js';
import { ATTRIBUTE, judgeUndo, type UndoPlan } from './undo.judge.js';

/**
 * Undoing an import, a chunk of its changed accounts at a time (in user id order), as
 * undo.judge.ts decides: the accounts it created removed, those it updated put back. A dry run
 * judges each chunk the same way and applies nothing.
 */

/** Applies a chunk's plans: removals in one statement, put-backs one by one, each audited. */
async function applyPlans(
  ctx: HandlerContext,
  tx: Transaction,
  jobId: number,
  of: number,
  plans: UndoPlan[],
  attributes: readonly AttributeDefinition[],
) {
  const { db } = ctx;
  const now = new Date();
  const origin = { ...auditOriginOf(ctx), context: { job_id: jobId, undo_of: of } };
  const removed = plans.filter((p) => p.kind === 'remove');
  if (removed.length) {
    const ids = removed.map((p) => p.target.id);
    const delta = {
      total: -removed.length,
      active: -removed.filter((p) => p.target.is_active).length,
      trashed: removed.length,
    };
    // The counters and every key table catch up once for the chunk, as a bulk delete's do.
    await withTriggersDeferred(
      db,
      tx,
      [statsBlock(db, tx, delta), ...userStateBlocks(db, tx, ids, 'deleted_at')],
      async () => {
        await db.sequelize.query(
          'UPDATE users SET is_active = 0, deleted_at = :now, lock_version = lock_version + 1, updated_at = :now WHERE id IN (:ids)',
          { replacements: { ids, now: sqlDate(db, now) }, transaction: tx },
        );
      },
    );
    await revokeCredentials(db, tx, ids);
    await recordChange(db, tx, { ...origin, action: 'users.bulk.delete', targetType: 'user', targetIds: ids });
  }
  const grants = await loadRoleGrants(db, 'all', tx);
  const roleIds = new Map(grants.map((g) => [g.name, g.id]));
  for (const p of plans) {
    if (p.kind !== 'restore') continue;
    const b = p.before;
    const set = {
      ...(typeof b.name === 'string' ? { name: b.name } : {}),
      ...(typeof b.email === 'string' ? { email: b.email } : {}),
      ...(typeof b.is_active === 'boolean' ? { is_active: b.is_active } : {}),
      ...('external_id' in b ? { external_id: (b.external_id as string | null) ?? null } : {}),
    };
    let roles: { added: number[]; removed: number[] } | null = null;
    if (Array.isArray(b.roles)) {
      const next = (b.roles as string[]).flatMap((name) => roleIds.get(name) ?? []);
      const current = p.change.roleIds;
      roles = { added: next.filter((r) => !current.includes(r)), removed: current.filter((r) => !next.includes(r)) };
    }
    const deleting = b.deleted === true;
    const wasActive = p.target.is_active;
    const active = set.is_active ?? wasActive;
    const delta = deleting
      ? { total: -1, active: wasActive ? -1 : 0, trashed: 1 }
      : { total: 0, active: active === wasActive ? 0 : active ? 1 : -1, trashed: 0 };
    await withStatsDeferred(db, tx, delta, async () => {
      await updateOrRetry(db, tx, p.target.id, set, roles, now);
      if (deleting) {
        await db.sequelize.query('UPDATE users SET deleted_at = :now WHERE id = :id', {
          replacements: { id: p.target.id, now: sqlDate(db, now) },
          transaction: tx,
        });
      }
    });
    if (deleting || set.is_active === false) await revokeCredentials(db, tx, [p.target.id]);
    // The custom attribute values as they were (an attribute removed since has nothing to put back).
    const values = attributes.flatMap((definition) => {
      const field = `${ATTRIBUTE}${definition.key}`;
      if (!(field in b)) return [];
      const value = b[field];
      const typed = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
      return [{ userId: p.target.id, write: { definition, value: typed } }];
    });
    await storeValues(db, tx, values, { replacing: true });
    await recordChange(db, tx, {
      ...origin,
      action: 'user.update',
      targetType: 'user',
      targetIds: [p.target.id],
      changes: diff(p.now, b),
    });
  }
}

/** An account put back; an old e-mail another door took since the chunk read it sends the chunk to be decided again. */
async function updateOrRetry(...args: Parameters<typeof updateAccount>) {
  try {
    await updateAccount(...args);
  } catch (err) {
    if (err instanceof UniqueConstraintError) throw new RetryTransaction('an e-mail was taken meanwhile');
    throw err;
  }
}

/** The `undo` kind for the job runner. */
export function undoJobKind(db: Database, config: AppConfig): JobKindRunner {
  return {
    async chunk(job: JobRow, tx, size) {
      const params = parseJson<UndoJobParams | null>(job.params, null);
      if (!params) return { fail: "The job's stored parameters cannot be read." };
      const ctx = await jobActor(db, config, job, [], {});
      if ('fail' in ctx) return ctx;
      const after = job.cursor_id === null ? 0 : Number(job.cursor_id);
      const changes = await importChangesAfter(db, tx, params.of, after, size);
      const empty = { cursor: after, processed: 0, changed: 0, skipped: 0, failed: 0, counts: {} };
      if (changes.length === 0) return { progress: empty, items: [], done: true };
      const dryRun = Boolean(job.dry_run);
      const before = parseJson<Partial<UndoJobState>>(job.state ?? '{}', {});
      // A dry run writes nothing, so it counts the administrators its earlier chunks would have
      // taken away, and the last-administrator rule judges as the undo will.
      const adminsGone = dryRun ? (before.adminsGone ?? 0) : 0;
      const { plans, items, attributes, adminsTaken } = await judgeUndo(ctx, tx, changes, {
        lock: !dryRun,
        adminsGone,
      });
      if (!dryRun) await applyPlans(ctx, tx, Number(job.id), params.of, plans, attributes);
      const removed = plans.filter((p) => p.kind === 'remove').length;
      const state: UndoJobState = {
        removed: (before.removed ?? 0) + removed,
        restored: (before.restored ?? 0) + plans.length - removed,
        ...(dryRun ? { adminsGone: adminsGone + adminsTaken } : {}),
      };
      const counts: Record<string, number> = {};
      for (const i of items) counts[i.code] = (counts[i.code] ?? 0) + 1;
      return {
        progress: {
          cursor: changes[changes.length - 1]?.userId ?? after,
          processed: changes.length,
          changed: plans.length,
          skipped: items.length,
          failed: 0,
          counts,
          state,
        },
        items,
        done: changes.length < size,
      };
    },
    finished(job, status, tx) {
      return recordJobEnd(db, tx, job, status);
    },
  };
}
