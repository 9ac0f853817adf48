import type { Transaction } from 'sequelize';
import type { HandlerContext } from '../../context.js';
import type { Database } from '../../db/database.js';
import { undoChangeRefusal } from '../../domain/jobs.rules.js';
import { type Change, judge, takesAdminAway, type Target } from '../../domain/users.rules.js';
import type { JobItem } from '../../jobs/job-store.js';
import { permissionsBeyond } from '../../repositories/held-permissions.js';
import { activeAdminsInPlay, lockAdministratorChanges, roleIdByName } from '../../repositories/users.locks.js';
import { type AttributeDefinition, listDefinitions } from '../attributes/attributes.repository.js';
import { type HeldValues, heldValues } from './import.attributes.js';
import { type Account, accountsByEmail, readAccounts } from './imports.accounts.js';
import type { ImportChange } from './imports.undo-repository.js';

/**
 * Judging a chunk of an import's undo (its changed accounts, in user id order): each account it
 * created is to be removed (deactivated and soft-deleted at once: it is the import's own account,
 * so the "deactivate first" rule, meant for a person's deliberate delete, does not apply), each
 * it updated to get back its fields as they were, its e-mail included. An account changed since
 * the import (its lock version moved), or whose old e-mail another account holds by now, is left
 * alone and reported. Everything else meets the rules of SPEC §7. The undo and its dry run both
 * judge here, so they decide alike; only the undo then applies the plans (undo-job.ts).
 */

export const ATTRIBUTE = 'attributes.';

/** What the undo does to one account the rules allow. */
export type UndoPlan =
  | { kind: 'remove'; change: ImportChange; target: Target }
  | {
      kind: 'restore';
      change: ImportChange;
      target: Target;
      before: Record<string, unknown>;
      now: Record<string, unknown>;
    };

export interface UndoJudgement {
  /** The accounts the rules allow, and what to do to each. */
  plans: UndoPlan[];
  /** The accounts left as they are, and why (the report's lines). */
  items: JobItem[];
  /** The custom attributes the chunk's records name, as declared now. */
  attributes: AttributeDefinition[];
  /** How many active administrators the plans take away. */
  adminsTaken: number;
}

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

/** A line of the undo's report. */
const item = (userId: number, email: string, code: string, message: string): JobItem => ({
  userId,
  email,
  outcome: 'skipped',
  code,
  message,
});

/** The changes the rules judge for a plan: a removal is a delete; a put-back, the edit and what it takes away. */
function changesToJudge(plan: UndoPlan, adminRoleId: number | null, adminRoleName: string): Change[] {
  if (plan.kind === 'remove') return [{ kind: 'delete', target: plan.target }];
  const out: Change[] = [{ kind: 'update', target: plan.target }];
  if (plan.before.is_active === false) out.push({ kind: 'setActive', target: plan.target, active: false });
  if (plan.before.deleted === true) out.push({ kind: 'delete', target: plan.target });
  const revertedRoles = plan.before.roles;
  if (Array.isArray(revertedRoles) && adminRoleId !== null && plan.change.roleIds.includes(adminRoleId)) {
    if (!revertedRoles.includes(adminRoleName)) out.push({ kind: 'removeAdminRole', target: plan.target });
  }
  return out;
}

/**
 * Judges a chunk of an import's undo. `run.lock`: the undo reads the accounts under their locks
 * and takes the administrators' turn; a dry run reads them as they are, and says how many active
 * administrators its earlier chunks would have taken away (`adminsGone`), so the
 * last-administrator rule judges as the undo will.
 */
export async function judgeUndo(
  ctx: HandlerContext,
  tx: Transaction,
  changes: readonly ImportChange[],
  run: { lock: boolean; adminsGone: number },
): Promise<UndoJudgement> {
  const { db, config } = ctx;
  const read = await readAccounts(db, tx, { ids: changes.map((c) => c.userId) }, run.lock);
  const accounts = new Map(read.map((a) => [a.id, a]));
  const attributes = await attributesNamed(db, tx, changes);
  const held = await heldValues(
    db,
    tx,
    read.map((a) => a.id),
    attributes,
  );
  const holders = await accountsByEmail(db, tx, emailsGivenBack(changes), run.lock);
  const adminRoleName = config.users.activation.adminRoleName;
  const adminRoleId = await roleIdByName(db, tx, adminRoleName);
  const items: JobItem[] = [];
  const plans: UndoPlan[] = [];
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
  const ids = plans.map((p) => p.target.id);
  const beyond = await permissionsBeyond(db, tx, ctx.actor, ids);
  for (const p of plans) p.target = { ...p.target, permissions: beyond.get(p.target.id) ?? new Set() };
  const namesAdmin = adminRoleId !== null && plans.some((p) => p.change.roleIds.includes(adminRoleId));
  if (namesAdmin && run.lock) await lockAdministratorChanges(db, tx);
  const admins = namesAdmin ? await activeAdminsInPlay(db, tx, adminRoleId, ids, run.adminsGone) : new Set<number>();
  const judged = plans.flatMap((p) => changesToJudge(p, adminRoleId, adminRoleName));
  // The import's own accounts go in one step: "inactive before deleted" is for a person's delete.
  const rules = { ...config.users, deletion: { ...config.users.deletion, requireInactive: false } };
  const violations = judge(ctx.actor, judged, admins, rules);
  const allowed = plans.filter((p) => {
    const v = violations.get(p.target.id);
    if (v) items.push(item(p.target.id, accounts.get(p.target.id)?.email ?? '', v.code, v.message));
    return !v;
  });
  const taken = judged.filter((c) => !violations.has(c.target.id) && admins.has(c.target.id) && takesAdminAway(c));
  return { plans: allowed, items, attributes, adminsTaken: new Set(taken.map((c) => c.target.id)).size };
}
