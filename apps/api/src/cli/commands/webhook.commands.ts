import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { pruneWebhookHistory } from '../../webhooks/retention.js';
import type { CliIO } from '../cli-error.js';
import { parseDaysOption } from '../options.js';

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
