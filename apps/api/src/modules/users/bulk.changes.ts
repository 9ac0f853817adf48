import { QueryTypes, type Transaction } from 'sequelize';
import type { BulkChange } from '../../bulk/bulk-declaration.js';
import type { Database } from '../../db/database.js';
import type { JobItem } from '../../jobs/job-store.js';
import { chunks } from '../../repositories/chunks.js';

/**
 * What a bulk job changed, user by user, as its report names it (issue 40): the fields before and
 * after, in the keys the audit uses (`is_active`, `roles`) or plain flags (`deleted`, `erased`),
 * with a sentence in words.
 */

const yes = (v: unknown) => v === true;

/** The change in words, from what the job changed (one sentence per kind of change). */
export function changeSentence(from: Record<string, unknown>, to: Record<string, unknown>): string {
  if ('is_active' in to) return yes(to.is_active) ? 'Activated.' : 'Deactivated.';
  if ('erased' in to) return 'Erased for good.';
  if ('deleted' in to) return yes(to.deleted) ? 'Moved to the trash.' : 'Restored from the trash.';
  if ('roles' in to) {
    const was = new Set(Array.isArray(from.roles) ? (from.roles as string[]) : []);
    const is = Array.isArray(to.roles) ? (to.roles as string[]) : [];
    const given = is.filter((r) => !was.has(r));
    const taken = [...was].filter((r) => !is.includes(r));
    const parts = [...given.map((r) => `Role “${r}” given.`), ...taken.map((r) => `Role “${r}” taken away.`)];
    return parts.join(' ') || 'Roles unchanged.';
  }
  return 'Changed.';
}

/**
 * Report lines for a chunk's changed users, read in the chunk's transaction after its write: the
 * e-mail, and the lock version the write left (an undo skips a user whose version moved on). An
 * erased user has no row left: it is named by id alone — its e-mail must not outlive it here.
 */
export async function changeItems(db: Database, tx: Transaction, changes: readonly BulkChange[]): Promise<JobItem[]> {
  if (changes.length === 0) return [];
  const rows = new Map<number, { email: string; version: number }>();
  for (const part of chunks(changes.map((c) => c.id))) {
    const read = await db.sequelize.query<{ id: number | string; email: string; lock_version: number | string }>(
      'SELECT id, email, lock_version FROM users WHERE id IN (:ids)',
      { replacements: { ids: part }, type: QueryTypes.SELECT, transaction: tx },
    );
    for (const r of read) rows.set(Number(r.id), { email: r.email, version: Number(r.lock_version) });
  }
  return changes.map((c) => {
    const row = rows.get(c.id);
    return {
      userId: c.id,
      email: row?.email ?? '',
      outcome: 'changed' as const,
      code: 'CHANGED',
      message: changeSentence(c.from, c.to),
      change: { from: c.from, to: c.to, version: row?.version ?? null },
    };
  });
}
