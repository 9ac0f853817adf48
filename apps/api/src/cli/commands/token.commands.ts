import {
  canonicalEmail,
  PermissionSchema,
  TOKEN_MAX_LIFETIME_DAYS,
  TokenCreateInputSchema,
  TokenNameSchema,
} from '@app/contracts';
import { z } from 'zod';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { trashRefusal } from '../../domain/users.trash.js';
import { mintToken } from '../../modules/tokens/tokens.mint.js';
import { findByEmail } from '../../modules/users/users.write-repository.js';
import { CliError, type CliIO } from '../cli-error.js';
import { asOperator, operatorContext, parseInput } from '../operator.js';
import { parseOptions } from '../options.js';

/**
 * token:create: the API's own mint (POST /users/{id}/tokens) as the operator — the same scope
 * rule, the same TOKENS_PER_USER bound, the same write transaction and audit row.
 */
export async function tokenCreate(db: Database, config: AppConfig, args: string[], io: CliIO) {
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
        .max(TOKEN_MAX_LIFETIME_DAYS, `must be at most ${TOKEN_MAX_LIFETIME_DAYS}`)
        .optional(),
      scope: z.array(PermissionSchema, { error: 'is not a known permission' }).optional(),
    }),
  );
  const user = await findByEmail(db, null, canonicalEmail(opts.email));
  if (!user) throw new CliError(`No user has the e-mail ${opts.email}.`);
  // The handler answers a deleted owner as not found (a caller may not know the trash); the
  // operator does, and is told so in the rule's own sentence.
  const place = trashRefusal('update', { name: user.email, deleted: user.deleted_at !== null });
  if (place) throw new CliError(place.message);
  const days = opts['expires-days'];
  const input = parseInput(TokenCreateInputSchema, {
    name: opts.name,
    expires_at: days ? new Date(Date.now() + days * 86_400_000).toISOString() : null,
    scopes: opts.scope ? [...new Set(opts.scope)] : null,
  });
  const { item, token } = await asOperator(() => mintToken(operatorContext(db, config), user.id, input), {
    scopes: 'scope',
  });
  io.out(
    `Created token #${item.id} "${item.name}" for ${user.email}${item.expires_at ? `, expires ${item.expires_at}` : ', no expiry'}${item.scopes ? `, narrowed to ${item.scopes.join(', ')}` : ", acting with all of its owner's permissions"}.`,
  );
  io.out('Copy it now: it is shown only once.');
  io.out('');
  io.out(`  ${token}`);
  io.out('');
  io.out(`Use it as: Authorization: Bearer ${token.slice(0, 8)}…`);
}
