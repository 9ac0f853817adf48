import {
  canonicalEmail,
  codePointName,
  PermissionSchema,
  refusedCharacter,
  roleNameKey,
  UserCreateInputSchema,
  UserUpdateInputSchema,
} from '@app/contracts';
import { Op } from 'sequelize';
import { z } from 'zod';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { trashRefusal } from '../../domain/users.trash.js';
import { createUser } from '../../modules/users/create.handler.js';
import { updateUser } from '../../modules/users/update.handler.js';
import { versionOf } from '../../modules/users/users.item.js';
import { findByEmail } from '../../modules/users/users.write-repository.js';
import { CliError, type CliIO } from '../cli-error.js';
import { asOperator, operatorContext, parseInput } from '../operator.js';
import { parseOptions } from '../options.js';
import { attributesOption } from '../attribute-values.js';

/** The roles `--role` names (each whatever its case and spacing), or a refusal naming the unknown ones. */
async function resolveRoleIds(db: Database, names: string[]): Promise<number[]> {
  if (names.length === 0) return [];
  const keys = names.map(roleNameKey);
  const rows = await db.models.Role.findAll({ where: { name_key: { [Op.in]: keys } } });
  const missing = names.filter((_, i) => !rows.some((r) => r.name_key === keys[i]));
  if (missing.length) {
    const known = (await db.models.Role.findAll({ order: [['name', 'ASC']] })).map((r) => r.name);
    throw new CliError(`Unknown role: ${missing.join(', ')}. Known: ${known.join(', ') || 'none'}.`);
  }
  return [...new Set(rows.map((r) => r.id))];
}

export async function userCreate(db: Database, config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    {
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string', multiple: true },
      permission: { type: 'string', multiple: true },
      inactive: { type: 'boolean' },
      attribute: { type: 'string', multiple: true },
    },
    z.object({
      email: z.string({ error: 'is required' }),
      name: z.string({ error: 'is required' }),
      password: z.string({ error: 'is required' }),
      role: z.array(z.string()).default([]),
      permission: z.array(PermissionSchema, { error: 'is not a known permission' }).default([]),
      inactive: z.boolean().default(false),
      attribute: z.array(z.string()).default([]),
    }),
  );
  const values = await attributesOption(db, opts.attribute);
  const roleIds = await resolveRoleIds(db, [...new Set(opts.role)]);
  // The API's own schema and handler: the command line cannot create what POST /users would refuse.
  const input = parseInput(UserCreateInputSchema, {
    name: opts.name,
    email: opts.email,
    password: opts.password,
    password_confirmation: opts.password,
    is_active: !opts.inactive,
    roles_ids: roleIds,
    permissions: opts.permission,
    ...(values ? { attributes: values.attributes } : {}),
  });
  const { item } = await asOperator(() => createUser({ ctx: operatorContext(db, config), input }), values?.flags);
  io.out(`Created user #${item.id} ${item.email}${opts.inactive ? ' (inactive)' : ''}.`);
}

export async function userSetPassword(db: Database, config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    { email: { type: 'string' }, password: { type: 'string' } },
    z.object({ email: z.string({ error: 'is required' }), password: z.string({ error: 'is required' }) }),
  );
  const user = await findByEmail(db, null, canonicalEmail(opts.email));
  if (!user) throw new CliError(`No user has the e-mail ${opts.email}.`);
  // The operator sees the trash: told which account is there, in the rule's own sentence.
  const place = trashRefusal('update', { name: user.email, deleted: user.deleted_at !== null });
  if (place) throw new CliError(place.message);
  // A name stored before the text rule may break it: the update below would refuse it, as typed
  // in a form, under a --name this command does not have.
  const hidden = refusedCharacter(user.name);
  if (hidden !== undefined) {
    throw new CliError(
      `${user.email}: the stored name contains an invisible or control character (${codePointName(hidden)}), which a name may no longer hold. Correct the name in the app first.`,
    );
  }
  // The API's PUT /users/{id} with the record as it is and a new password: the same checks, the
  // same revocation of every session and token, the same audit row.
  const input = parseInput(UserUpdateInputSchema, {
    name: user.name,
    email: user.email,
    password: opts.password,
    password_confirmation: opts.password,
    version: versionOf(user),
  });
  await asOperator(() => updateUser({ ctx: operatorContext(db, config), input: { id: user.id, ...input } }));
  io.out(`Password updated for ${user.email}; every session signed out and every API token revoked.`);
}

/**
 * `user:update --email E [--name N] [--attribute key=value]...`: PUT /users/{id} with the record
 * as it is and the changes given (only the attributes named change; `key=` clears one).
 */
export async function userUpdate(db: Database, config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    { email: { type: 'string' }, name: { type: 'string' }, attribute: { type: 'string', multiple: true } },
    z.object({
      email: z.string({ error: 'is required' }),
      name: z.string().optional(),
      attribute: z.array(z.string()).default([]),
    }),
  );
  if (opts.name === undefined && opts.attribute.length === 0)
    throw new CliError('Give --name or --attribute: nothing to change.');
  const user = await findByEmail(db, null, canonicalEmail(opts.email));
  if (!user) throw new CliError(`No user has the e-mail ${opts.email}.`);
  const place = trashRefusal('update', { name: user.email, deleted: user.deleted_at !== null });
  if (place) throw new CliError(place.message);
  const values = await attributesOption(db, opts.attribute);
  const input = parseInput(UserUpdateInputSchema, {
    name: opts.name ?? user.name,
    email: user.email,
    version: versionOf(user),
    ...(values ? { attributes: values.attributes } : {}),
  });
  const { item } = await asOperator(
    () => updateUser({ ctx: operatorContext(db, config), input: { id: user.id, ...input } }),
    values?.flags,
  );
  const shown = Object.entries(item.attributes ?? {}).map(([key, value]) => `${key}=${String(value)}`);
  io.out(`Updated user #${item.id} ${item.email}${shown.length ? `: ${shown.join(', ')}` : ''}.`);
}
