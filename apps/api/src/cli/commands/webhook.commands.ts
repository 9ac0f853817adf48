import { z } from 'zod';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { pruneWebhookHistory } from '../../webhooks/retention.js';
import { resealSecrets } from '../../modules/webhooks/reseal.js';
import { CliError, type CliIO } from '../cli-error.js';
import { operatorContext } from '../operator.js';
import { parseDaysOption, parseOptions } from '../options.js';

/** `webhooks:prune [--days N]`: what the dispatchers do hourly, now (WEBHOOKS_RETENTION_DAYS unless --days). */
export async function webhooksPrune(db: Database, config: AppConfig, args: string[], io: CliIO) {
  const days = parseDaysOption(args) ?? config.WEBHOOKS_RETENTION_DAYS;
  const cutoff = new Date(Date.now() - days * 86_400_000);
  const done = await pruneWebhookHistory(db, cutoff);
  const n = (count: number) => count.toLocaleString('en');
  io.out(
    `Deleted ${n(done.events)} webhook event(s), ${n(done.deliveries)} delivery(ies) and ${n(done.attempts)} attempt(s) from before ${cutoff.toISOString()} (kept ${days} day(s)).`,
  );
}

/**
 * `webhooks:reseal`: every endpoint's signing secret sealed with the current SECRETS_KEY (the
 * webhooks module's `resealSecrets`, audited as `webhook.reseal`). Run after setting or changing
 * the key; afterwards the previous key can be dropped from SECRETS_KEY_PREVIOUS.
 */
export async function webhooksReseal(db: Database, config: AppConfig, args: string[], io: CliIO) {
  parseOptions(args, {}, z.object({}));
  const done = await resealSecrets(operatorContext(db, config));
  if (!done) throw new CliError('SECRETS_KEY is not set: there is no key to seal the secrets with.');
  io.out(`Sealed ${done.resealed} webhook secret(s) with key ${done.keyId}; ${done.alreadyCurrent} already were.`);
  if (done.unopened.length) {
    throw new CliError(
      `${done.unopened.length} secret(s) could not be opened with the keys given (webhook ids ${done.unopened.join(', ')}): add the key that sealed them to SECRETS_KEY_PREVIOUS, or rotate those secrets.`,
    );
  }
}
