import { z } from 'zod';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { resealStoredSecrets } from '../../modules/secrets/reseal-stored.js';
import { resealSecrets } from '../../modules/webhooks/reseal.js';
import { CliError, type CliIO } from '../cli-error.js';
import { operatorContext } from '../operator.js';
import { parseOptions } from '../options.js';

const WHAT = {
  providers: 'single sign-on client secret(s)',
  two_factor: 'two-factor secret(s)',
  mail: 'waiting mail message(s)',
} as const;

/**
 * `secrets:reseal`: everything stored sealed with SECRETS_KEY — the webhooks' signing secrets
 * (audited as `webhook.reseal`), the providers' client secrets, the users' TOTP secrets and the
 * mail still waiting (one `secrets.reseal` event) — sealed with the current key. Run after
 * setting or changing the key; once it succeeds, the previous key can be dropped from
 * SECRETS_KEY_PREVIOUS. Fails (exit 1), naming what, when a value opens with none of the keys.
 */
export async function secretsReseal(db: Database, config: AppConfig, args: string[], io: CliIO) {
  parseOptions(args, {}, z.object({}));
  const ctx = operatorContext(db, config);
  const webhooks = await resealSecrets(ctx);
  const stored = await resealStoredSecrets(ctx);
  if (!webhooks || !stored) throw new CliError('SECRETS_KEY is not set: there is no key to seal the secrets with.');
  io.out(
    `Sealed ${webhooks.resealed} webhook secret(s) with key ${webhooks.keyId}; ${webhooks.alreadyCurrent} already were.`,
  );
  const problems: string[] = [];
  if (webhooks.unopened.length)
    problems.push(`${webhooks.unopened.length} webhook secret(s) (ids ${webhooks.unopened.join(', ')})`);
  for (const kind of Object.keys(WHAT) as Array<keyof typeof WHAT>) {
    const done = stored.kinds[kind];
    io.out(`Sealed ${done.resealed} ${WHAT[kind]} with key ${stored.keyId}; ${done.alreadyCurrent} already were.`);
    if (done.unopened.length) {
      // Users and mail are named by count: a list of ids could run to thousands.
      problems.push(
        kind === 'providers'
          ? `${done.unopened.length} ${WHAT[kind]} (provider ids ${done.unopened.join(', ')})`
          : `${done.unopened.length} ${WHAT[kind]}`,
      );
    }
  }
  if (problems.length) {
    throw new CliError(
      `Could not be opened with the keys given: ${problems.join('; ')}. Add the key that sealed them to SECRETS_KEY_PREVIOUS and run this again; until then keep the previous key.`,
    );
  }
}
