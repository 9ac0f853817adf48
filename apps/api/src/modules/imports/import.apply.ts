import { attributePath } from '@app/contracts';
import { type Transaction, UniqueConstraintError } from 'sequelize';
import type { HandlerContext } from '../../context.js';
import { RetryTransaction } from '../../db/transaction.js';
import { auditOriginOf, diff, recordChange, recordChanges } from '../../journal/journal.js';
import { revokeCredentials } from '../users/users.batch-repository.js';
import { withStatsDeferred } from '../users/users.stats-deferral.js';
import type { Decision } from './import.decide.js';
import { newAccountHash } from './import.lines.js';
import { sensitivityOf, storeValues } from './import.attributes.js';
import { insertAccounts, insertRoleAssignments, recordImportChanges, updateAccount } from './imports.accounts.js';

/**
 * A chunk's decisions written (import-job.ts decides them): the new accounts, their roles and
 * custom attribute values, the updates, one audit row and events per account, and what the undo
 * needs to put each back.
 */

/** Stores values, a unique value taken meanwhile by another door sending the chunk to be decided again. */
async function storeOrRetry(...args: Parameters<typeof storeValues>) {
  try {
    await storeValues(...args);
  } catch (err) {
    if (err instanceof UniqueConstraintError)
      throw new RetryTransaction('a unique attribute value was taken meanwhile');
    throw err;
  }
}

type Created = Extract<Decision, { outcome: 'create' }>;
type Updated = Extract<Decision, { outcome: 'update' }>;

/** Writes a chunk's decisions: new accounts and their roles, updates, their audit, events and undo record. */
export async function applyDecisions(
  ctx: HandlerContext,
  tx: Transaction,
  jobId: number,
  decisions: Decision[],
  roleNames: ReadonlyMap<number, string>,
) {
  const { db } = ctx;
  const now = new Date();
  const creates = decisions.filter((d): d is Created => d.outcome === 'create');
  const updates = decisions.filter((d): d is Updated => d.outcome === 'update');
  const origin = { ...auditOriginOf(ctx), context: { job_id: jobId } };
  const undo: Parameters<typeof recordImportChanges>[3][number][] = [];
  if (creates.length) {
    const accounts = creates.map((c) => ({
      name: c.line.name as string,
      email: c.line.email,
      passwordHash: newAccountHash(c.line),
      isActive: c.isActive,
      externalId: c.line.externalId,
    }));
    const delta = { total: creates.length, active: creates.filter((c) => c.isActive).length, trashed: 0 };
    let ids = new Map<string, number>();
    try {
      await withStatsDeferred(db, tx, delta, async () => {
        ids = await insertAccounts(db, tx, accounts, now);
      });
    } catch (err) {
      // Another door created one of these e-mails since the chunk read them: decide again.
      if (err instanceof UniqueConstraintError) throw new RetryTransaction('an account was created meanwhile');
      throw err;
    }
    const created = creates.map((c) => ({ c, id: ids.get(c.line.email) as number }));
    await insertRoleAssignments(
      db,
      tx,
      created.flatMap(({ c, id }) => c.roleIds.map((r) => [id, r] as const)),
    );
    const given = created.flatMap(({ c, id }) =>
      c.line.attributes.filter((w) => w.value !== null).map((write) => ({ userId: id, write })),
    );
    await storeOrRetry(db, tx, given, { replacing: false });
    // One audit row per new account, with its values (as a form's creation records them) and the
    // line it came from; written in multi-row statements, with one user.created event each.
    await recordChanges(
      db,
      tx,
      created.map(({ c, id }) => ({
        ...origin,
        action: 'user.create' as const,
        targetType: 'user',
        targetIds: [id],
        changes: diff(null, {
          name: c.line.name,
          email: c.line.email,
          is_active: c.isActive,
          roles: c.roleIds.map((r) => roleNames.get(r) ?? String(r)).sort(),
          ...(c.line.externalId ? { external_id: c.line.externalId } : {}),
          ...Object.fromEntries(c.line.attributes.map((w) => [attributePath(w.definition.key), w.value])),
        }),
        context: {
          job_id: jobId,
          line: c.line.line,
          ...sensitivityOf(
            c.line.attributes.filter((w) => w.value !== null),
            c.line.attributes.map((w) => attributePath(w.definition.key)),
          ),
        },
      })),
    );
    for (const { c, id } of created)
      undo.push({ userId: id, change: 'created', line: c.line.line, lockVersion: 0, before: null });
  }
  for (const u of updates) {
    const activeDelta = u.set.is_active === undefined ? 0 : u.set.is_active ? 1 : -1;
    const restoring = Boolean(u.set.restore);
    const wasActive = u.account.is_active;
    const nowActive = u.set.is_active ?? wasActive;
    const delta = restoring
      ? { total: 1, active: nowActive ? 1 : 0, trashed: -1 }
      : { total: 0, active: activeDelta, trashed: 0 };
    try {
      await withStatsDeferred(db, tx, delta, () => updateAccount(db, tx, u.account.id, u.set, u.roles, now));
    } catch (err) {
      // Another door took the line's new e-mail since the chunk read it: decide again.
      if (err instanceof UniqueConstraintError) throw new RetryTransaction('an e-mail was taken meanwhile');
      throw err;
    }
    const before = { ...u.before, ...(restoring ? { deleted: true } : {}) };
    const after = { ...u.after, ...(restoring ? { deleted: false } : {}) };
    await recordChange(db, tx, {
      ...origin,
      action: 'user.update',
      targetType: 'user',
      targetIds: [u.account.id],
      changes: diff(before, after),
      context: { job_id: jobId, line: u.line.line, ...sensitivityOf(u.set.attributes ?? [], Object.keys(after)) },
    });
    undo.push({
      userId: u.account.id,
      change: 'updated',
      line: u.line.line,
      lockVersion: u.account.lock_version + 1,
      before,
    });
  }
  const changedValues = updates.flatMap((u) =>
    (u.set.attributes ?? []).map((write) => ({ userId: u.account.id, write })),
  );
  await storeOrRetry(db, tx, changedValues, { replacing: true });
  // A deactivated or re-deleted account loses its sessions and tokens at once, as with any door.
  const deactivated = updates.filter((u) => u.set.is_active === false).map((u) => u.account.id);
  if (deactivated.length) await revokeCredentials(db, tx, deactivated);
  await recordImportChanges(db, tx, jobId, undo);
}
