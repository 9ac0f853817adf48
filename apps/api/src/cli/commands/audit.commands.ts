import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { pruneAudit } from '../../modules/audit/prune.js';
import { CliError, type CliIO } from '../cli-error.js';
import { parseDaysOption } from '../options.js';

/** `audit:prune [--days N]`: applies the retention (AUDIT_RETENTION_DAYS unless --days says otherwise). */
export async function auditPrune(db: Database, config: AppConfig, args: string[], io: CliIO) {
  const days = parseDaysOption(args) ?? config.AUDIT_RETENTION_DAYS;
  if (days === undefined) {
    throw new CliError('Nothing to prune: the audit log keeps every event. Set AUDIT_RETENTION_DAYS or pass --days N.');
  }
  const { cutoff, deleted } = await pruneAudit(db, days, { actorId: null, source: 'cli' });
  io.out(
    `Deleted ${deleted.toLocaleString('en')} audit event(s) from before ${cutoff.toISOString()} (kept ${days} day(s)).`,
  );
}
