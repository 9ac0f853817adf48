import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';

/** A row of a selection job's chunk, as the driver returns it. */
export type ChunkRow = { id: number | string } & Record<string, unknown>;

/** A dry run's next chunk, being read while the runner judges the one before it. */
interface ReadAhead {
  after: number;
  size: number;
  rows: Promise<ChunkRow[]>;
  expiry: NodeJS.Timeout;
}

/**
 * A read ahead no chunk took this long after it started is dropped: its job ended or went to
 * another runner (a chunk takes well under a second), and rows that old are no preview of now.
 */
const READ_AHEAD_KEPT_MS = 10_000;

const ignore = () => undefined;

/**
 * A dry run's chunks, each read while the one before is judged. A dry run changes nothing and
 * locks nothing, so its next chunk's rows need not wait for this chunk's transaction: read on
 * another connection, they are in when the next chunk starts, and the database's part of a dry
 * run runs beside the API's instead of after it. The rows are read at most one chunk earlier
 * than they would be: a dry run judges the rows as its reads found them either way. SQLite reads
 * in the chunk's transaction (one file, one writer: nothing to overlap).
 */
export function dryRunReads(dialect: Database['dialect']) {
  const ahead = new Map<number, ReadAhead>();
  const drop = (jobId: number) => {
    const kept = ahead.get(jobId);
    if (!kept) return undefined;
    clearTimeout(kept.expiry);
    ahead.delete(jobId);
    return kept;
  };
  return {
    /** The chunk's rows: those read ahead for this cursor, else read now in `tx`. */
    async take(
      jobId: number,
      tx: Transaction,
      read: (tx: Transaction | null) => Promise<ChunkRow[]>,
      after: number | null,
      size: number,
    ): Promise<ChunkRow[]> {
      const kept = drop(jobId);
      if (kept && kept.after === after && kept.size === size) {
        // A read ahead that failed is read again in the transaction, whose failure the runner handles.
        const rows = await kept.rows.catch(() => null);
        if (rows) return rows;
      }
      return read(tx);
    },
    /** Starts reading the chunk after `last` (the caller's chunk was full: more may follow). */
    readAhead(jobId: number, read: (tx: null) => Promise<ChunkRow[]>, last: number, size: number) {
      if (dialect !== 'mysql') return;
      drop(jobId);
      const rows = read(null);
      rows.catch(ignore);
      const expiry = setTimeout(() => drop(jobId), READ_AHEAD_KEPT_MS);
      expiry.unref();
      ahead.set(jobId, { after: last, size, rows, expiry });
    },
    /** The job ended: its read ahead, if any, is dropped. */
    forget(jobId: number) {
      drop(jobId);
    },
  };
}
