import { PermissionSchema, RoleCreateInputSchema, RoleUpdateInputSchema, roleNameKey } from '@app/contracts';
import { z } from 'zod';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { createRole } from '../../modules/roles/create.handler.js';
import { deleteRole } from '../../modules/roles/delete.handler.js';
import { roleVersionOf } from '../../modules/roles/roles.item.js';
import { updateRole } from '../../modules/roles/update.handler.js';
import { CliError, type CliIO } from '../cli-error.js';
import { asOperator, operatorContext, parseInput } from '../operator.js';
import { parseOptions } from '../options.js';

/** role:create: the API's own role handler as the operator — the same name rule, uniqueness and audit row. */
export async function roleCreate(db: Database, config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    { name: { type: 'string' }, permission: { type: 'string', multiple: true } },
    z.object({
      name: z.string({ error: 'is required' }),
      permission: z.array(PermissionSchema, { error: 'is not a known permission' }).default([]),
    }),
  );
  const input = parseInput(RoleCreateInputSchema, { name: opts.name, permissions: opts.permission });
  const { item } = await asOperator(() => createRole({ ctx: operatorContext(db, config), input }), {
    permissions: 'permission',
  });
  const granted = item.permissions?.map((p) => p.name) ?? [];
  io.out(`Created role #${item.id} ${item.name}${granted.length ? ` with ${granted.join(', ')}` : ''}.`);
}

/**
 * The role named `name` (whatever its case and spacing: `--name "help  desk"` finds "Help Desk")
 * with its version and the permissions it grants, or a one-line refusal.
 */
async function roleByName(db: Database, name: string) {
  const role = await db.models.Role.findOne({
    where: { name_key: roleNameKey(name) },
    include: [{ association: 'permissions', attributes: ['name'], through: { attributes: [] } }],
  });
  if (!role) throw new CliError(`--name: There is no role named ${name}.`);
  const permissions = ((role.get('permissions') as Array<{ name: string }> | undefined) ?? []).map((p) => p.name);
  return { id: role.id, name: role.name, version: roleVersionOf(role), permissions };
}

/**
 * role:update: the API's own PUT /roles/{id} handler as the operator, on the role as it is now
 * (its current version): a new name, and the permissions it grants when --permission is given
 * (the whole list, as the API takes it) or --no-permissions; otherwise they stay.
 */
export async function roleUpdate(db: Database, config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    {
      name: { type: 'string' },
      rename: { type: 'string' },
      permission: { type: 'string', multiple: true },
      'no-permissions': { type: 'boolean' },
    },
    z.object({
      name: z.string({ error: 'is required' }),
      rename: z.string().optional(),
      permission: z.array(PermissionSchema, { error: 'is not a known permission' }).optional(),
      'no-permissions': z.boolean().optional(),
    }),
  );
  const role = await roleByName(db, opts.name);
  const permissions = opts['no-permissions'] ? [] : (opts.permission ?? role.permissions);
  const input = parseInput(RoleUpdateInputSchema, {
    name: opts.rename ?? role.name,
    permissions,
    version: role.version,
  });
  const { item } = await asOperator(
    () => updateRole({ ctx: operatorContext(db, config), input: { id: role.id, ...input } }),
    {
      permissions: 'permission',
      name: 'rename',
    },
  );
  const granted = item.permissions?.map((p) => p.name) ?? [];
  io.out(`Updated role #${item.id} ${item.name}: ${granted.length ? granted.join(', ') : 'no permissions'}.`);
}

/** role:delete: the API's own DELETE /roles/{id} handler as the operator; a role with members needs --detach. */
export async function roleDelete(db: Database, config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    { name: { type: 'string' }, detach: { type: 'boolean' } },
    z.object({ name: z.string({ error: 'is required' }), detach: z.boolean().optional() }),
  );
  const role = await roleByName(db, opts.name);
  await asOperator(() =>
    deleteRole({ ctx: operatorContext(db, config), input: { id: role.id, detach: opts.detach === true } }),
  );
  io.out(`Deleted role #${role.id} ${role.name}.`);
}
