import { isPermission, type Permission, RoleCreateInputSchema, SCIM_SCHEMAS } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { z } from 'zod';
import { createRole } from '../../modules/roles/create.handler.js';
import { deleteRole } from '../../modules/roles/delete.handler.js';
import { updateRole } from '../../modules/roles/update.handler.js';
import { roleVersionOf } from '../../modules/roles/roles.item.js';
import type { GroupMemberChange } from '../patch/group-patch.js';
import { requireScimPermission, type ScimContext } from '../scim-context.js';
import { invalidSyntax, invalidValue, mutability } from '../scim-error.js';
import { checkIfMatch } from '../scim-listing.js';
import { changeMembers } from './scim-group.members.js';
import { groupById, groupEtag, type ScimGroupRow } from './scim-groups.read.js';

const MEMBER_ID = /^\d{1,15}$/;

/** Attribute names are case-insensitive (RFC 7643 §2.1). */
const SPELLING: Record<string, string> = { displayname: 'displayName', externalid: 'externalId' };

const GroupBodySchema = z.object({
  displayName: z.string({ error: 'displayName is required.' }),
  externalId: z.string().trim().max(255, 'externalId is longer than 255 characters.').nullish(),
  members: z
    .array(z.object({ value: z.string().regex(MEMBER_ID, 'A member value is a user id.') }))
    .max(10_000, 'At most 10 000 members in one request: add more with PATCH.')
    .optional(),
});

/** A POST or PUT body as a Group: its name, judged by the role-name rule, and its members if given. */
export interface GroupBody {
  name: string;
  externalId: string | null;
  members: string[] | null;
}

export function readGroupBody(body: unknown): GroupBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidSyntax('The request body must be a SCIM Group object.');
  }
  const raw = Object.fromEntries(
    Object.entries(body).map(([k, v]) => [SPELLING[k.toLowerCase()] ?? k.toLowerCase(), v]),
  );
  const schemas = raw.schemas;
  if (!Array.isArray(schemas) || !schemas.includes(SCIM_SCHEMAS.group)) {
    throw invalidSyntax(`"schemas" must list ${SCIM_SCHEMAS.group}.`);
  }
  const parsed = GroupBodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidValue(`${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid value'}`);
  }
  const name = RoleCreateInputSchema.shape.name.safeParse(parsed.data.displayName);
  if (!name.success) throw invalidValue(`displayName: ${name.error.issues[0]?.message ?? 'invalid'}`);
  return {
    name: name.data,
    externalId: parsed.data.externalId || null,
    members: parsed.data.members?.map((m) => m.value) ?? null,
  };
}

const checkGroupIfMatch = (ifMatch: string | undefined, row: ScimGroupRow) =>
  checkIfMatch(ifMatch, groupEtag(row), 'group');

export async function createGroup(ctx: ScimContext, body: GroupBody) {
  requireScimPermission(ctx, 'roles.create');
  const { item } = await createRole({
    ctx,
    input: {
      name: body.name,
      description: null,
      permissions: [],
      require_two_factor: false,
      identity: { externalId: body.externalId },
    },
  });
  if (body.members?.length) await changeMembers(ctx, item.id, [{ op: 'add', ids: body.members }]);
  return item.id;
}

async function permissionsOf(ctx: ScimContext, roleId: number): Promise<Permission[]> {
  const rows = await ctx.db.sequelize.query<{ name: string }>(
    `SELECT p.name FROM permissions p JOIN role_permissions rp ON rp.permission_id = p.id WHERE rp.role_id = :roleId`,
    { type: QueryTypes.SELECT, replacements: { roleId } },
  );
  return rows.map((r) => r.name).filter(isPermission);
}

/**
 * Renames a role through the role editor's handler (its rules, its audit row). The administrator
 * role keeps its name over SCIM: the product's rules find it by that name.
 */
async function renameGroup(ctx: ScimContext, row: ScimGroupRow, name: string, externalId: string | null | undefined) {
  const renamed = name !== row.name;
  const reIdentified = externalId !== undefined && externalId !== row.external_id;
  if (!renamed && !reIdentified) return;
  if (renamed && row.name === ctx.config.users.activation.adminRoleName) {
    throw mutability(`The ${row.name} role cannot be renamed over SCIM.`);
  }
  requireScimPermission(ctx, 'roles.update');
  await updateRole({
    ctx,
    input: {
      id: row.id,
      name,
      permissions: await permissionsOf(ctx, row.id),
      version: roleVersionOf(row),
      ...(reIdentified ? { identity: { externalId } } : {}),
    },
  });
}

/**
 * A group's change (PUT or PATCH): the name, then the members, each through its own handler. The
 * name is judged before any member changes (a taken name refuses the whole request); a member
 * the rules refuse rolls every membership change back.
 */
export async function changeGroup(
  ctx: ScimContext,
  id: string,
  ifMatch: string | undefined,
  change: { name?: string; externalId?: string | null; members: readonly GroupMemberChange[] },
) {
  // What the answer shows (the group and its members) needs roles.view; a change of its name or
  // externalId roles.update, even one that changes nothing; its members users.update (changeMembers).
  requireScimPermission(ctx, 'roles.view');
  if (change.name !== undefined || change.externalId !== undefined) requireScimPermission(ctx, 'roles.update');
  const row = await groupById(ctx.db, id);
  checkGroupIfMatch(ifMatch, row);
  if (change.name !== undefined || change.externalId !== undefined) {
    await renameGroup(ctx, row, change.name ?? row.name, change.externalId);
  }
  await changeMembers(ctx, row.id, change.members);
}

export async function deleteGroup(ctx: ScimContext, id: string, ifMatch: string | undefined) {
  requireScimPermission(ctx, 'roles.delete');
  const row = await groupById(ctx.db, id);
  checkGroupIfMatch(ifMatch, row);
  // An identity provider deleting a group means it: its members lose the role with it.
  await deleteRole({ ctx, input: { id: row.id, detach: true } });
}
