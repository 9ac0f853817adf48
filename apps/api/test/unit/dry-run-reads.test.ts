import type { Transaction } from 'sequelize';
import { describe, expect, it, vi } from 'vitest';
import { type ChunkRow, dryRunReads } from '../../src/bulk/dry-run-reads.js';

/**
 * A dry run reads its next chunk while the runner judges the current one (MariaDB). The rows read
 * ahead must only ever stand for the chunk they were read for: the same job, the same cursor, the
 * same size. Anything else is read again in the chunk's own transaction.
 */
const tx = { id: 'chunk-transaction' } as unknown as Transaction;
const rows = (...ids: number[]): ChunkRow[] => ids.map((id) => ({ id }));

/** A chunk reader that records where each read ran: in the transaction, or outside any (ahead). */
function reader(answer: (on: Transaction | null) => Promise<ChunkRow[]>) {
  const calls: Array<'tx' | 'ahead'> = [];
  const read = async (on: Transaction | null) => {
    calls.push(on === null ? 'ahead' : 'tx');
    return answer(on);
  };
  return { read, calls };
}

describe('a dry run reading its next chunk ahead', () => {
  it('hands the chunk read ahead to the chunk at that cursor, without reading it again', async () => {
    const reads = dryRunReads('mysql');
    const { read, calls } = reader(async () => rows(4, 5, 6));
    reads.readAhead(7, read, 3, 3);
    expect(await reads.take(7, tx, read, 3, 3)).toEqual(rows(4, 5, 6));
    expect(calls).toEqual(['ahead']);
  });

  it('reads in the transaction when the cursor, the size or the job is not the one read ahead for', async () => {
    const reads = dryRunReads('mysql');
    const { read, calls } = reader(async (on) => (on === null ? rows(4, 5, 6) : rows(9)));
    reads.readAhead(7, read, 3, 3);
    // Another runner went on from elsewhere: the rows read after id 3 are not this chunk's.
    expect(await reads.take(7, tx, read, 6, 3)).toEqual(rows(9));
    reads.readAhead(7, read, 3, 3);
    expect(await reads.take(7, tx, read, 3, 2)).toEqual(rows(9));
    reads.readAhead(7, read, 3, 3);
    expect(await reads.take(8, tx, read, 3, 3)).toEqual(rows(9));
    expect(calls).toEqual(['ahead', 'tx', 'ahead', 'tx', 'ahead', 'tx']);
  });

  it('uses a read ahead once: another chunk at the same cursor reads again', async () => {
    const reads = dryRunReads('mysql');
    const { read, calls } = reader(async () => rows(4));
    reads.readAhead(7, read, 3, 3);
    await reads.take(7, tx, read, 3, 3);
    await reads.take(7, tx, read, 3, 3);
    expect(calls).toEqual(['ahead', 'tx']);
  });

  it('reads again in the transaction when the read ahead failed, so a failure is the transaction’s', async () => {
    const reads = dryRunReads('mysql');
    const { read, calls } = reader(async (on) => {
      if (on === null) throw new Error('connection lost');
      return rows(4);
    });
    reads.readAhead(7, read, 3, 3);
    expect(await reads.take(7, tx, read, 3, 3)).toEqual(rows(4));
    expect(calls).toEqual(['ahead', 'tx']);
  });

  it('drops the read ahead of a job that ended', async () => {
    const reads = dryRunReads('mysql');
    const { read, calls } = reader(async () => rows(4));
    reads.readAhead(7, read, 3, 3);
    reads.forget(7);
    await reads.take(7, tx, read, 3, 3);
    expect(calls).toEqual(['ahead', 'tx']);
  });

  it('drops a read ahead no chunk took within ten seconds, and keeps one taken in time', async () => {
    vi.useFakeTimers();
    try {
      const reads = dryRunReads('mysql');
      const { read, calls } = reader(async () => rows(4));
      reads.readAhead(7, read, 3, 3);
      vi.advanceTimersByTime(10_001);
      await reads.take(7, tx, read, 3, 3);
      reads.readAhead(7, read, 4, 3);
      vi.advanceTimersByTime(9_000);
      await reads.take(7, tx, read, 4, 3);
      expect(calls).toEqual(['ahead', 'tx', 'ahead']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads nothing ahead on SQLite: each chunk reads in its transaction', async () => {
    const reads = dryRunReads('sqlite');
    const { read, calls } = reader(async () => rows(4));
    reads.readAhead(7, read, 3, 3);
    await reads.take(7, tx, read, 3, 3);
    expect(calls).toEqual(['tx']);
  });
});
