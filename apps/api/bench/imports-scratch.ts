import { type ConnectionSettings, connect } from './seed.js';

/**
 * The imports bench's own database, never `ua_bench`: its imports add a million users or more
 * each, which would otherwise have to be deleted again through the search-index triggers.
 */
export const scratchUrl = (smoke: boolean) =>
  `mysql://root@127.0.0.1:3306/${smoke ? 'ua_bench_imports_smoke' : 'ua_bench_imports'}`;

/**
 * Drops the scratch database at the end of a run, but only when its name says it is a benchmark
 * database (as seed.ts's ensureDatabase, which refused to create anything else at the start).
 */
export async function dropScratch(settings: ConnectionSettings, log: (s: string) => void): Promise<void> {
  if (!/bench/i.test(settings.database)) {
    log(`not dropping ${settings.database}: only databases whose name contains "bench" are dropped`);
    return;
  }
  const conn = await connect(settings, false);
  try {
    const started = Date.now();
    await conn.query(`DROP DATABASE IF EXISTS \`${settings.database.replace(/`/g, '``')}\``);
    log(`dropped database ${settings.database} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await conn.end();
  }
}
