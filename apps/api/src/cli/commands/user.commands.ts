import { canonicalEmail, fieldErrorsFromZod, PermissionSchema, UserCreateInputSchema } from '@app/contracts';
import { Op } from 'sequelize';
import { z } from 'zod';
import { recordAudit } from '../../audit/audit.js';
import { hashPassword } from '../../auth/password.js';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { revokeOtherCredentials } from '../../modules/users/users.batch-repository.js';
import { emailTaken, findByEmail, insertUser } from '../../modules/users/users.repository.js';
import { CliError, type CliIO } from '../cli-error.js';
import { parseOptions } from '../options.js';

/** Validates with the same contract schema the API uses, so the CLI cannot create what the API would refuse. */
function validateAccount(input: { name: string; email: string; password: string; is_active: boolean }) {
  const parsed = UserCreateInputSchema.safeParse({ ...input, password_confirmation: input.password });
  if (!parsed.success) {
    const [field, messages] = Object.entries(fieldErrorsFromZod(parsed.error))[0] ?? ['input', ['is invalid']];
    throw new CliError(`--${field}: ${messages[0]}`);
  }
  return parsed.data;
}

async function resolveIds(db: Database, table: 'roles' | 'permissions', names: string[]): Promise<number[]> {
  if (names.length === 0) return [];
  const model = table === 'roles' ? db.models.Role : db.models.Permission;
  const rows = await model.findAll({ where: { name: { [Op.in]: names } } });
  const missing = names.filter((n) => !rows.some((r) => r.name === n));
  if (missing.length) {
    const known = (await model.findAll({ order: [['name', 'ASC']] })).map((r) => r.name);
    throw new CliError(
      `Unknown ${table === 'roles' ? 'role' : 'permission'}: ${missing.join(', ')}. Known: ${known.join(', ') || 'none'}.`,
    );
  }
  return rows.map((r) => r.id);
}

export async function userCreate(db: Database, _config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    {
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string', multiple: true },
      permission: { type: 'string', multiple: true },
      inactive: { type: 'boolean' },
    },
    z.object({
      email: z.string({ error: 'is required' }),
      name: z.string({ error: 'is required' }),
      password: z.string({ error: 'is required' }),
      role: z.array(z.string()).default([]),
      permission: z.array(PermissionSchema, { error: 'is not a known permission' }).default([]),
      inactive: z.boolean().default(false),
    }),
  );
  const account = validateAccount({
    name: opts.name,
    email: opts.email,
    password: opts.password,
    is_active: !opts.inactive,
  });
  const user = await db.sequelize.transaction(async (tx) => {
    if (await emailTaken(db, tx, account.email)) throw new CliError(`The e-mail ${account.email} is already taken.`);
    const roleIds = await resolveIds(db, 'roles', [...new Set(opts.role)]);
    const permissionIds = await resolveIds(db, 'permissions', [...new Set(opts.permission)]);
    const created = await insertUser(
      db,
      tx,
      {
        name: account.name,
        email: account.email,
        passwordHash: await hashPassword(account.password),
        isActive: !opts.inactive,
      },
      roleIds,
      permissionIds,
    );
    await recordAudit(db, tx, {
      actorId: null,
      action: 'user.create',
      targetType: 'user',
      targetIds: [created.id],
      changes: {
        name: { before: null, after: created.name },
        email: { before: null, after: created.email },
        is_active: { before: null, after: created.is_active },
        roles: { before: null, after: opts.role },
        permissions: { before: null, after: opts.permission },
      },
      context: { source: 'cli' },
    });
    return created;
  });
  io.out(`Created user #${user.id} ${user.email}${opts.inactive ? ' (inactive)' : ''}.`);
}

export async function userSetPassword(db: Database, _config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    { email: { type: 'string' }, password: { type: 'string' } },
    z.object({ email: z.string({ error: 'is required' }), password: z.string({ error: 'is required' }) }),
  );
  const user = await findByEmail(db, null, canonicalEmail(opts.email));
  if (!user) throw new CliError(`No user has the e-mail ${opts.email}.`);
  validateAccount({ name: user.name, email: user.email, password: opts.password, is_active: user.is_active });
  const hash = await hashPassword(opts.password);
  const revoked = await db.sequelize.transaction(async (tx) => {
    await db.models.User.update({ password_hash: hash }, { where: { id: user.id }, paranoid: false, transaction: tx });
    // A new password ends every existing session and token of the account, in the same transaction.
    const ended = await revokeOtherCredentials(db, tx, user.id, null);
    await recordAudit(db, tx, {
      actorId: null,
      action: 'user.setPassword',
      targetType: 'user',
      targetIds: [user.id],
      context: { source: 'cli', ...ended },
    });
    return ended;
  });
  io.out(
    `Password updated for ${user.email}; ${revoked.sessionsEnded} session(s) signed out, ${revoked.tokensRevoked} API token(s) revoked.`,
  );
}
