import {
  type ActionState,
  type IdInput,
  PERMISSIONS,
  type Permission,
  PREVIEW_SAMPLE,
  type PermissionImpact,
  type PreviewReach,
  type RolePreview,
  type RolePreviewInput,
} from '@app/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Context, HandlerCall } from '../../context.js';
import { peopleState } from '../../domain/disclosure.js';
import { judgeRoleChange, lastHolderRefusal, type RoleChange } from '../../domain/roles.rules.js';
import { notFound } from '../../errors.js';
import {
  firstMembersWithout,
  managersLacking,
  memberCount,
  membersHeldOnlyBy,
  membersHoldingElsewhere,
  permissionIdsByName,
  roleForPreview,
  rolesGranting,
  someoneWouldHoldEverything,
  usersByIds,
} from './roles.preview-reads.js';

type PreviewContext = Context & { actor: Actor };

/** The permissions among `names` the contract knows, in its order (a stray stored name is left out). */
const known = (names: Iterable<string>): Permission[] => {
  const set = new Set(names);
  return PERMISSIONS.filter((p) => set.has(p));
};

const stateOf = (ctx: PreviewContext, change: RoleChange): ActionState => {
  const violation = judgeRoleChange(ctx.actor, change, ctx.config.users.activation.adminRoleName);
  return violation ? { allowed: false, code: violation.code, message: violation.message } : { allowed: true };
};

/**
 * POST /roles/{id}/preview: what saving `permissions` (the whole set) on the role would do,
 * nothing written. See roles.preview-reads.ts for why each count stays fast at 800 000 members.
 *
 * - gains / losses, per permission added / taken away: the members outside the trash who do not
 *   hold it another way (another role granting it, or a direct grant) — the same set either
 *   way: they gain it, or they lose it. Counts exact; the first 20 by id (ids; `users` names each
 *   once) for a caller holding users.view, none otherwise (domain/disclosure.ts).
 * - outranks: the users who manage accounts today and would be outranked by a member after the
 *   change. Exactly: active users outside the trash, not members of the role, who hold
 *   users.update (through a role or directly) and lack at least one added permission that some
 *   member gains (a member gaining P outranks every manager lacking P — the user ceiling,
 *   `outranked` in users.rules.ts). Only an added permission can create this; a manager whom
 *   every member outranked already is counted too (checking "could change some member today"
 *   would mean reading every member's permissions).
 * - two_factor: when `require_two_factor` changes, the members it alone holds at enrolment
 *   (membersHeldOnlyBy: active, outside the trash, no confirmed second factor, no other role
 *   requiring one) — `held` when it is switched on, `released` when switched off; both 0 when
 *   it stays as it is (left out, or the same).
 * - refusal: what PUT /roles/{id} would answer for this set (judgeRoleChange, the name kept);
 *   when the rules allow it and permissions are taken away, also the last-holder rule
 *   (LAST_ADMIN when nobody active would hold every permission, and somebody does today).
 */
export async function previewRoleChange({
  ctx,
  input,
}: HandlerCall<IdInput & RolePreviewInput, PreviewContext>): Promise<RolePreview> {
  const { db } = ctx;
  const role = await roleForPreview(db, input.id);
  if (!role) throw notFound('The role');
  const subject = { id: role.id, name: role.name, permissions: role.permissions };
  let refusal = stateOf(ctx, { kind: 'update', role: subject, name: role.name, permissions: input.permissions });

  const current = new Set(role.permissions);
  const proposed = new Set<string>(input.permissions);
  const added = known(proposed).filter((p) => !current.has(p));
  const removed = known(current).filter((p) => !proposed.has(p));
  const ids = await permissionIdsByName(db);
  const members = await memberCount(db, role.id);
  // Who is reached is counted for everyone; named (ids, then names once each) only with users.view.
  const people = peopleState(ctx.actor);
  const sample = people.allowed ? PREVIEW_SAMPLE : 0;

  const impact = async (permission: Permission): Promise<PermissionImpact> => {
    const permissionId = ids.get(permission);
    if (members === 0 || permissionId === undefined) return { permission, count: 0, user_ids: [] };
    const others = { otherRoles: await rolesGranting(db, permissionId, role.id), permissionId };
    const count = Math.max(0, members - (await membersHoldingElsewhere(db, role.id, others)));
    const user_ids = await firstMembersWithout(db, role.id, others, Math.min(count, sample));
    return { permission, count, user_ids };
  };
  const gains: PermissionImpact[] = [];
  for (const permission of added) gains.push(await impact(permission));
  const losses: PermissionImpact[] = [];
  for (const permission of removed) losses.push(await impact(permission));

  const gained = gains.filter((g) => g.count > 0).flatMap((g) => ids.get(g.permission) ?? []);
  const updateId = ids.get('users.update');
  const outranks =
    gained.length && updateId !== undefined
      ? await managersLacking(db, {
          roleId: role.id,
          updateId,
          updaterRoles: await rolesGranting(db, updateId, 0),
          gained,
          limit: sample,
        })
      : { count: 0, user_ids: [] };

  if (refusal.allowed && removed.length) {
    const all = known(ids.keys()).flatMap((p) => ids.get(p) ?? []);
    const grantsOf = (names: Iterable<string>) => [...names].flatMap((p) => ids.get(p) ?? []);
    const after = await someoneWouldHoldEverything(db, role.id, grantsOf(proposed), all);
    // As the write's guard: refused only when it would end the guarantee someone holds today.
    if (!after && (await someoneWouldHoldEverything(db, role.id, grantsOf(current), all))) {
      refusal = { allowed: false, code: 'LAST_ADMIN', message: lastHolderRefusal(0) ?? undefined };
    }
  }
  const nobody: PreviewReach = { count: 0, user_ids: [] };
  const requires = input.require_two_factor ?? role.requireTwoFactor;
  const reached = requires === role.requireTwoFactor ? nobody : await membersHeldOnlyBy(db, role.id, members, sample);
  const two_factor = requires ? { held: reached, released: nobody } : { held: nobody, released: reached };

  const parts = [...gains, ...losses, outranks, two_factor.held, two_factor.released];
  const named = new Set(parts.flatMap((part) => part.user_ids));
  const users = await usersByIds(db, [...named]);
  return { gains, losses, outranks, two_factor, users, people, refusal };
}

/**
 * POST /roles/preview: the same for a role not created yet. It has no members, so nobody gains
 * anything (each permission is listed with 0), nobody is outranked and nobody held by a
 * second-factor requirement; the refusal is what POST /roles would answer for this set
 * (roles.create, only permissions the caller holds).
 */
export async function previewNewRole({
  ctx,
  input,
}: HandlerCall<RolePreviewInput, PreviewContext>): Promise<RolePreview> {
  return {
    gains: known(input.permissions).map((permission) => ({ permission, count: 0, user_ids: [] })),
    losses: [],
    outranks: { count: 0, user_ids: [] },
    two_factor: { held: { count: 0, user_ids: [] }, released: { count: 0, user_ids: [] } },
    users: [],
    people: peopleState(ctx.actor),
    refusal: stateOf(ctx, { kind: 'create', name: '', permissions: input.permissions }),
  };
}
