import { canonicalEmail, PERMISSIONS, PermissionSchema, TokenNameSchema } from '@app/contracts';
import { z } from 'zod';
import { recordAudit } from '../../audit/audit.js';
import { permissionNames } from '../../auth/actor.js';
import { mintApiToken } from '../../auth/api-tokens.js';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { findByEmail } from '../../modules/users/users.repository.js';
import { CliError, type CliIO } from '../cli-error.js';
import { parseOptions } from '../options.js';

export async function tokenCreate(db: Database, _config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    {
      email: { type: 'string' },
      name: { type: 'string' },
      'expires-days': { type: 'string' },
      scope: { type: 'string', multiple: true },
    },
    z.object({
      email: z.string({ error: 'is required' }).trim().min(1, 'is required'),
      // The API's own rule for a token's name (free text: text.ts in the contracts).
      name: TokenNameSchema.default('cli'),
      'expires-days': z.coerce
        .number({ error: 'must be a whole number of days' })
        .int('must be a whole number of days')
        .min(1, 'must be at least 1')
        .max(3650, 'must be at most 3650')
        .optional(),
      scope: z.array(PermissionSchema, { error: 'is not a known permission' }).optional(),
    }),
  );
  const user = await findByEmail(db, null, canonicalEmail(opts.email));
  if (!user || user.deleted_at) throw new CliError(`No user has the e-mail ${opts.email}.`);
  if (!user.is_active) throw new CliError(`${user.email} is inactive: a token would not work until it is activated.`);
  const days = opts['expires-days'];
  const expiresAt = days ? new Date(Date.now() + days * 86_400_000) : null;
  // A token never holds more than its owner: narrowing is to permissions the owner holds.
  const wanted = opts.scope ? new Set(opts.scope) : null;
  const scopes = wanted ? PERMISSIONS.filter((p) => wanted.has(p)) : null;
  if (scopes) {
    const held = await permissionNames(db, user.id);
    const lacking = scopes.filter((p) => !held.has(p));
    if (lacking.length) {
      throw new CliError(
        `--scope: ${user.email} does not hold ${lacking.join(', ')}; a token can only be narrowed to permissions its owner holds.`,
      );
    }
  }
  const { id, token } = await db.sequelize.transaction(async (tx) => {
    const created = await mintApiToken(db, { userId: user.id, name: opts.name, expiresAt, scopes }, tx);
    await recordAudit(db, tx, {
      actorId: null,
      action: 'token.create',
      targetType: 'user',
      targetIds: [user.id],
      context: {
        source: 'cli',
        tokenId: created.row.id,
        name: opts.name,
        expiresAt: expiresAt?.toISOString() ?? null,
        scopes,
      },
    });
    return { id: created.row.id, token: created.token };
  });
  io.out(
    `Created token #${id} "${opts.name}" for ${user.email}${expiresAt ? `, expires ${expiresAt.toISOString()}` : ', no expiry'}${scopes ? `, narrowed to ${scopes.join(', ')}` : ", acting with all of its owner's permissions"}.`,
  );
  io.out('Copy it now: it is shown only once.');
  io.out('');
  io.out(`  ${token}`);
  io.out('');
  io.out(`Use it as: Authorization: Bearer ${token.slice(0, 8)}…`);
}
