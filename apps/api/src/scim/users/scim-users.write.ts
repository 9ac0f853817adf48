import { AppError } from '../../errors.js';
import { createUser } from '../../modules/users/create.handler.js';
import { deleteUser } from '../../modules/users/delete.handler.js';
import { setUserActive } from '../../modules/users/set-active.handler.js';
import { updateUser } from '../../modules/users/update.handler.js';
import { versionOf } from '../../modules/users/users.item.js';
import { requireScimPermission, type ScimContext } from '../scim-context.js';
import { checkIfMatch } from '../scim-listing.js';
import { accountOf, identityOf, type ScimUserFields } from './scim-user.input.js';
import { emailOf, nameParts, type ScimUserRow, userEtag } from './scim-user.mapping.js';
import { scimUserById } from './scim-users.read.js';
import {
  attributeWrites,
  type EnterpriseMapping,
  enterpriseFieldsOf,
  enterpriseMappingFor,
  extensionsOf,
} from './scim-enterprise.js';

/**
 * The SCIM door's user writes, each through the product's own handler for that action (create,
 * edit, status, delete): the same rules, ceiling, audit (`via: scim`) and webhooks as REST.
 */

export const checkUserIfMatch = (ifMatch: string | undefined, row: ScimUserRow) =>
  checkIfMatch(ifMatch, userEtag(row), 'user');

/** The SCIM fields of an account as stored, for a PATCH to apply its operations to. */
export function fieldsOf(row: ScimUserRow, extension: Record<string, unknown> | null): ScimUserFields {
  const parts = nameParts(row);
  return {
    userName: row.user_name ?? row.email,
    externalId: row.external_id,
    name: { formatted: row.name, givenName: parts.givenName ?? null, familyName: parts.familyName ?? null },
    displayName: row.name,
    emails: [emailOf(row)],
    active: row.is_active,
    enterprise: enterpriseFieldsOf(extension),
  };
}

export async function createScimUser(ctx: ScimContext, fields: ScimUserFields): Promise<number> {
  requireScimPermission(ctx, 'users.create');
  const account = accountOf(fields);
  const mapping = await enterpriseMappingFor(ctx.db, ctx.actor);
  const attributes = await attributeWrites(ctx.db, mapping.fields, {}, fields.enterprise);
  const { item } = await createUser({
    ctx,
    input: {
      ...(Object.keys(attributes).length > 0 ? { attributes } : {}),
      name: account.name,
      email: account.email,
      ...(account.password !== undefined
        ? { password: account.password, password_confirmation: account.password }
        : {}),
      is_active: fields.active,
      identity: identityOf(fields),
    },
  });
  return item.id;
}

/**
 * Writes `next` over the account `row` was read as: nothing when nothing changed, the status
 * handler when only `active` did (a token with users.setActive alone can deactivate, as Okta's
 * deprovisioning does), the edit handler otherwise (users.update, and users.setActive when the
 * status changes too, judged by the edit's own plan).
 */
export async function writeScimUser(
  ctx: ScimContext,
  row: ScimUserRow,
  before: ScimUserFields,
  next: ScimUserFields,
  mapping: EnterpriseMapping,
): Promise<void> {
  const account = accountOf(next);
  const identity = identityOf(next);
  const attributes = await attributeWrites(ctx.db, mapping.fields, before.enterprise, next.enterprise);
  const unchanged =
    account.name === row.name &&
    account.email === row.email &&
    next.userName.toLowerCase() === before.userName.toLowerCase() &&
    next.externalId === row.external_id &&
    identity.nameParts.givenName === row.given_name &&
    identity.nameParts.familyName === row.family_name &&
    identity.emailPrimary === row.email_primary &&
    account.password === undefined &&
    Object.keys(attributes).length === 0;
  if (unchanged && next.active === row.is_active) {
    requireScimPermission(ctx, 'users.update');
    return;
  }
  if (unchanged) {
    requireScimPermission(ctx, 'users.setActive');
    await setUserActive({ ctx, input: { id: row.id, active: next.active } });
    return;
  }
  requireScimPermission(ctx, 'users.update');
  await updateUser({
    ctx,
    input: {
      id: row.id,
      name: account.name,
      email: account.email,
      ...(account.password !== undefined
        ? { password: account.password, password_confirmation: account.password }
        : {}),
      is_active: next.active,
      ...(Object.keys(attributes).length > 0 ? { attributes } : {}),
      version: versionOf(row),
      identity,
    },
  });
}

/**
 * Reads the account, checks `If-Match`, lets `change` decide the new fields and writes them. A
 * write that loses a race to another change of the same user (its version moved on between the
 * read and the write) is read and decided again once when the client sent no `If-Match`: it
 * asked for the change whatever the version; with one, the race is its 412.
 */
export async function changeScimUser(
  ctx: ScimContext,
  id: string,
  ifMatch: string | undefined,
  change: (current: ScimUserFields) => ScimUserFields,
): Promise<void> {
  const mapping = await enterpriseMappingFor(ctx.db, ctx.actor);
  for (let attempt = 0; ; attempt++) {
    const { row } = await scimUserById(ctx.db, id);
    checkUserIfMatch(ifMatch, row);
    const extension = (await extensionsOf(ctx.db, mapping, [row.id], ctx.baseUrl)).get(row.id) ?? null;
    const before = fieldsOf(row, extension);
    try {
      await writeScimUser(ctx, row, before, change(before), mapping);
      return;
    } catch (err) {
      const stale = err instanceof AppError && err.appCode === 'VERSION_CONFLICT';
      if (!stale || ifMatch !== undefined || attempt > 0) throw err;
    }
  }
}

/**
 * DELETE /Users/{id}: an identity provider removing an account. The product deletes only an
 * inactive account (rule 3), so an active one is deactivated first — through the status
 * handler, with its rules (self, last administrator) and users.setActive — then deleted: both
 * changes audited as any door's.
 */
export async function deleteScimUser(ctx: ScimContext, id: string, ifMatch: string | undefined): Promise<void> {
  requireScimPermission(ctx, 'users.delete');
  const { row } = await scimUserById(ctx.db, id);
  checkUserIfMatch(ifMatch, row);
  if (row.is_active) {
    requireScimPermission(ctx, 'users.setActive');
    await setUserActive({ ctx, input: { id: row.id, active: false } });
  }
  await deleteUser({ ctx, input: { id: row.id } });
}
