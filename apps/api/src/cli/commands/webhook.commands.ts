import { z } from 'zod';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { pruneWebhookHistory } from '../../webhooks/retention.js';
import type { CliIO } from '../cli-error.js';
import { parseOptions } from '../options.js';

/** `webhooks:prune [--days N]`: what the dispatchers do hourly, now (WEBHOOKS_RETENTION_DAYS unless --days). */
export async function webhooksPrune(db: Database, config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    { days: { type: 'string' } },
    z.object({
      days: z.coerce
        .number({ error: 'must be a whole number of days' })
        .int('must be a whole number of days')
        .min(1, 'must be at least 1')
        .optional(),
    }),
  );
  const days = opts.days ?? config.WEBHOOKS_RETENTION_DAYS;
  const cutoff = new Date(Date.now() - days * 86_400_000);
  const done = await pruneWebhookHistory(db, cutoff);
  const n = (count: number) => count.toLocaleString('en');
  io.out(
    `Deleted ${n(done.events)} webhook event(s), ${n(done.deliveries)} delivery(ies) and ${n(done.attempts)} attempt(s) from before ${cutoff.toISOString()} (kept ${days} day(s)).`,
  );
}
