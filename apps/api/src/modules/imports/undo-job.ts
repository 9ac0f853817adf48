import { type Transaction, UniqueConstraintError } from 'sequelize';
import { RetryTransaction } from '../../db/transaction.js';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { sqlDate } from '../../db/sql-date.js';
import { loadRoleGrants } from '../../repositories/role-grants.js';
import { permissionsBeyond } from '../../repositories/held-permissions.js';
import { undoChangeRefusal } from '../../domain/jobs.rules.js';
import { activeAdminsInPlay, lockAdministratorChanges, roleIdByName } from '../../repositories/users.locks.js';
import { type Change, judge, type Target } from '../../domain/users.rules.js';
import { jobActor } from '../../jobs/job-actor.js';
import { recordJobEnd } from '../../jobs/job-end.js';
import { type JobRow, parseJson, type UndoJobParams } from '../../jobs/job-rows.js';
import type { JobItem } from '../../jobs/job-store.js';
import type { JobKindRunner } from '../../jobs/runner.js';
import { diff, recordChange } from '../../journal/journal.js';
import { revokeCredentials } from '../users/users.batch-repository.js';
import { withStatsDeferred } from '../users/users.stats-deferral.js';
import { auditOriginOf } from '../../journal/journal.js';
import { type ImportChange, importChangesAfter } from './imports.undo-repository.js';
import { type Account, accountsByEmail, readAccounts, updateAccount } from './imports.accounts.js';
import type { HandlerContext } from '../../context.js';
import { type AttributeDefinition, listDefinitions } from '../attributes/attributes.repository.js';
import { type HeldValues, heldValues, storeValues } from './import.attributes.js';

const ATTRIBUTE = 'attributes.';

/** The attributes an import's records name (`attributes.<key>` in their before-values), as declared now. */
async function attributesNamed(db: Database, tx: Transaction, changes: readonly ImportChange[]) {
  const keys = new Set(
    changes
      .flatMap((c) => Object.keys(c.before ?? {}).filter((f) => f.startsWith(ATTRIBUTE)))
      .map((f) => f.slice(ATTRIBUTE.length)),
  );
  return keys.size === 0 ? [] : (await listDefinitions(db, tx)).filter((d) => keys.has(d.key));
}

/** The e-mails an import's records would give back (the accounts it moved off them). */
function emailsGivenBack(changes: readonly ImportChange[]): string[] {
  return changes.flatMap((c) => (typeof c.before?.email === 'string' ? [c.before.email] : []));
}

/**
 * Why an account cannot get its old e-mail back: another account holds it now (a unique e-mail;
 * deleted accounts hold theirs too). `holders`: the accounts holding the e-mails given back.
 */
function emailRefusal(account: Account, before: Record<string, unknown>, holders: ReadonlyMap<string, Account>) {
  if (typeof before.email !== 'string') return null;
  // Keyed as `accountsByEmail` keys them; the column compares without case on both engines.
  const holder = holders.get(before.email.toLowerCase());
  if (!holder || holder.id === account.id) return null;
  return `${account.name}'s e-mail ${before.email} now belongs to another account: left as it is.`;
}

/**
 * Undoing an import, a chunk of its changed accounts at a time (in user id order): each account
 * it created is removed (deactivated and soft-deleted at once: it is the import's own account,
 * so the "deactivate first" rule, meant for a person's deliberate delete, does not apply), each
 * it updated gets back its fields as they were, its e-mail included. An account changed since
 * the import (its lock version moved), or whose old e-mail another account holds by now, is left
 * alone and reported. Everything else meets the rules of SPEC §7.
 */

/** An account's value of a field an import's diff names (`roles`: the role names, sorted). */
function fieldOf(account: Account, field: string, held: HeldValues): unknown {
  if (field.startsWith(ATTRIBUTE)) return held.get(account.id)?.get(field.slice(ATTRIBUTE.length)) ?? null;
  switch (field) {
    case 'name':
      return account.name;
    case 'email':
      return account.email;
    case 'is_active':
      return account.is_active;
    case 'external_id':
      return account.external_id;
    case 'deleted':
      return account.deleted;
    case 'roles':
      return account.roleNames;
    default:
      return undefined;
  }
}

type Plan =
  | { kind: 'remove'; change: ImportChange; target: Target }
  | {
      kind: 'restore';
      change: ImportChange;
      target: Target;
      before: Record<string, unknown>;
      now: Record<string, unknown>;
    };

/** A line of the undo's report. */
const item = (userId: number, email: string, code: string, message: string): JobItem => ({
  userId,
  email,
  outcome: 'skipped',
  code,
  message,
});

async function applyPlans(
  ctx: HandlerContext,
  tx: Transaction,
  jobId: number,
  of: number,
  plans: Plan[],
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
    await withStatsDeferred(db, tx, delta, async () => {
      await db.sequelize.query(
        'UPDATE users SET is_active = 0, deleted_at = :now, lock_version = lock_version + 1, updated_at = :now WHERE id IN (:ids)',
        { replacements: { ids, now: sqlDate(db, now) }, transaction: tx },
      );
    });
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
      const read = await readAccounts(db, tx, { ids: changes.map((c) => c.userId) }, true);
      const accounts = new Map(read.map((a) => [a.id, a]));
      const attributes = await attributesNamed(db, tx, changes);
      const held = await heldValues(
        db,
        tx,
        read.map((a) => a.id),
        attributes,
      );
      const holders = await accountsByEmail(db, tx, emailsGivenBack(changes), true);
      const adminRoleId = await roleIdByName(db, tx, config.users.activation.adminRoleName);
      const items: JobItem[] = [];
      const plans: Plan[] = [];
      for (const change of changes) {
        const account = accounts.get(change.userId);
        if (!account) {
          items.push(item(change.userId, '', 'NOT_FOUND', 'The account no longer exists.'));
          continue;
        }
        if (account.lock_version !== change.lockVersion) {
          const message = `${account.name} was changed after the import: left as it is.`;
          items.push(item(account.id, account.email, 'CHANGED_SINCE', message));
          continue;
        }
        const refused = undoChangeRefusal(ctx.actor, change.change);
        if (refused) {
          items.push(item(account.id, account.email, 'FORBIDDEN', refused));
          continue;
        }
        const target: Target = {
          id: account.id,
          name: account.name,
          is_active: account.is_active,
          deleted: account.deleted,
          permissions: new Set(),
        };
        if (change.change === 'created')
          plans.push({ kind: 'remove', change: { ...change, roleIds: account.roleIds }, target });
        else {
          const before = change.before ?? {};
          const taken = emailRefusal(account, before, holders);
          if (taken) {
            items.push(item(account.id, account.email, 'EMAIL_TAKEN', taken));
            continue;
          }
          const now = Object.fromEntries(Object.keys(before).map((k) => [k, fieldOf(account, k, held)]));
          plans.push({ kind: 'restore', change: { ...change, roleIds: account.roleIds }, target, before, now });
        }
      }
      const beyond = await permissionsBeyond(
        db,
        tx,
        ctx.actor,
        plans.map((p) => p.target.id),
      );
      for (const p of plans) p.target = { ...p.target, permissions: beyond.get(p.target.id) ?? new Set() };
      const namesAdmin = adminRoleId !== null && plans.some((p) => p.change.roleIds.includes(adminRoleId));
      if (namesAdmin) await lockAdministratorChanges(db, tx);
      const admins = namesAdmin
        ? await activeAdminsInPlay(
            db,
            tx,
            adminRoleId,
            plans.map((p) => p.target.id),
          )
        : new Set<number>();
      const judged: Change[] = plans.flatMap((p): Change[] => {
        if (p.kind === 'remove') return [{ kind: 'delete', target: p.target }];
        const out: Change[] = [{ kind: 'update', target: p.target }];
        if (p.before.is_active === false) out.push({ kind: 'setActive', target: p.target, active: false });
        if (p.before.deleted === true) out.push({ kind: 'delete', target: p.target });
        const revertedRoles = p.before.roles;
        if (Array.isArray(revertedRoles) && adminRoleId !== null && p.change.roleIds.includes(adminRoleId)) {
          if (!revertedRoles.includes(config.users.activation.adminRoleName))
            out.push({ kind: 'removeAdminRole', target: p.target });
        }
        return out;
      });
      // The import's own accounts go in one step: "inactive before deleted" is for a person's delete.
      const rules = { ...config.users, deletion: { ...config.users.deletion, requireInactive: false } };
      const violations = judge(ctx.actor, judged, admins, rules);
      const allowed = plans.filter((p) => {
        const v = violations.get(p.target.id);
        if (v) items.push(item(p.target.id, accounts.get(p.target.id)?.email ?? '', v.code, v.message));
        return !v;
      });
      await applyPlans(ctx, tx, Number(job.id), params.of, allowed, attributes);
      const counts: Record<string, number> = {};
      for (const i of items) counts[i.code] = (counts[i.code] ?? 0) + 1;
      return {
        progress: {
          cursor: changes[changes.length - 1]?.userId ?? after,
          processed: changes.length,
          changed: allowed.length,
          skipped: items.length,
          failed: 0,
          counts,
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
