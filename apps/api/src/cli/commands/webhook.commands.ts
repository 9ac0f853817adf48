import { z } from 'zod';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { writeTransaction } from '../../db/transaction.js';
import { pruneWebhookHistory } from '../../webhooks/retention.js';
import { openSecret, SecretUnavailable, sealSecret } from '../../webhooks/secret-box.js';
import { secretKeysOf } from '../../webhooks/settings.js';
import { CliError, type CliIO } from '../cli-error.js';
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
 * `webhooks:reseal`: every endpoint's signing secret sealed with the current SECRETS_KEY — the
 * ones stored before a key was set, and the ones a previous key sealed. Run after setting or
 * changing the key; afterwards the previous key can be dropped from SECRETS_KEY_PREVIOUS.
 */
export async function webhooksReseal(db: Database, config: AppConfig, args: string[], io: CliIO) {
  parseOptions(args, {}, z.object({}));
  const keys = secretKeysOf(config);
  if (!keys.current) throw new CliError('SECRETS_KEY is not set: there is no key to seal the secrets with.');
  const current = `v1.${keys.current.id}.`;
  const unopened: number[] = [];
  let resealed = 0;
  let alreadyCurrent = 0;
  await writeTransaction(db, async (transaction) => {
    const rows = await db.models.Webhook.findAll({ attributes: ['id', 'secret'], transaction, lock: true });
    for (const row of rows) {
      if (row.secret.startsWith(current)) {
        alreadyCurrent += 1;
        continue;
      }
      let plain: string;
      try {
        plain = openSecret(row.secret, keys);
      } catch (err) {
        if (!(err instanceof SecretUnavailable)) throw err;
        unopened.push(row.id);
        continue;
      }
      await db.models.Webhook.update({ secret: sealSecret(plain, keys) }, { where: { id: row.id }, transaction });
      resealed += 1;
    }
  });
  io.out(`Sealed ${resealed} webhook secret(s) with key ${keys.current.id}; ${alreadyCurrent} already were.`);
  if (unopened.length) {
    throw new CliError(
      `${unopened.length} secret(s) could not be opened with the keys given (webhook ids ${unopened.join(', ')}): add the key that sealed them to SECRETS_KEY_PREVIOUS, or rotate those secrets.`,
    );
  }
}
