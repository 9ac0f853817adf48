import { canonicalEmail } from '@app/contracts';
import { z } from 'zod';
import { recordAudit } from '../../audit/audit.js';
import { createApiToken } from '../../auth/api-tokens.js';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { findByEmail } from '../../modules/users/users.repository.js';
import { CliError, type CliIO } from '../cli-error.js';
import { parseOptions } from '../options.js';

export async function tokenCreate(db: Database, _config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    { email: { type: 'string' }, name: { type: 'string' }, 'expires-days': { type: 'string' } },
    z.object({
      email: z.string({ error: 'is required' }).trim().min(1, 'is required'),
      name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').default('cli'),
      'expires-days': z.coerce
        .number({ error: 'must be a whole number of days' })
        .int('must be a whole number of days')
        .min(1, 'must be at least 1')
        .max(3650, 'must be at most 3650')
        .optional(),
    }),
  );
  const user = await findByEmail(db, null, canonicalEmail(opts.email));
  if (!user || user.deleted_at) throw new CliError(`No user has the e-mail ${opts.email}.`);
  if (!user.is_active) throw new CliError(`${user.email} is inactive: a token would not work until it is activated.`);
  const days = opts['expires-days'];
  const expiresAt = days ? new Date(Date.now() + days * 86_400_000) : null;
  const { id, token } = await db.sequelize.transaction(async (tx) => {
    const created = await createApiToken(db, user.id, opts.name, expiresAt, tx);
    await recordAudit(db, tx, {
      actorId: null,
      action: 'token.create',
      targetType: 'user',
      targetIds: [user.id],
      context: { source: 'cli', tokenId: created.id, name: opts.name, expiresAt: expiresAt?.toISOString() ?? null },
    });
    return created;
  });
  io.out(
    `Created token #${id} "${opts.name}" for ${user.email}${expiresAt ? `, expires ${expiresAt.toISOString()}` : ', no expiry'}.`,
  );
  io.out('Copy it now: it is shown only once.');
  io.out('');
  io.out(`  ${token}`);
  io.out('');
  io.out(`Use it as: Authorization: Bearer ${token.slice(0, 8)}…`);
}
