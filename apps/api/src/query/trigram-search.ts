import { literal, QueryTypes, type WhereOptions } from 'sequelize';
import type { Database } from '../db/database.js';

/**
 * Substring search answered from a trigram index. The index is only ever asked for candidates:
 * rows holding every trigram of the term (a superset of the matches). The plain LIKE condition
 * stays in the WHERE and decides each row, so the result is the LIKE scan's, row for row; the
 * index only saves reading the rows that cannot match.
 */

const GRAM = 3;
/** Trigrams the planner asks the database about: enough to find a rare one in a long e-mail. */
const MAX_PROBED = 12;
/** A candidate read through the index costs a key lookup and a LIKE: about this many scanned rows. */
const INDEX_ROW_COST = 3;

/** The distinct trigrams of `term`, by code point (as CHAR_LENGTH and FTS5 count characters). */
export function trigramsOf(term: string): string[] {
  const chars = Array.from(term);
  const seen = new Map<string, string>();
  for (let i = 0; i + GRAM <= chars.length; i++) {
    const gram = chars.slice(i, i + GRAM).join('');
    const key = gram.toLowerCase();
    if (!seen.has(key)) seen.set(key, gram);
  }
  return [...seen.values()];
}

/** At most MAX_PROBED trigrams spread over the term: the non-overlapping ones first. */
function probed(grams: readonly string[]): string[] {
  if (grams.length <= MAX_PROBED) return [...grams];
  const picked = new Set<string>();
  for (let step = GRAM; step >= 1 && picked.size < MAX_PROBED; step--) {
    for (let i = 0; i < grams.length && picked.size < MAX_PROBED; i += step) picked.add(grams[i] as string);
  }
  return [...picked];
}

/** Where a table's trigram index lives and how its candidates are written, per engine. */
export interface TrigramIndex {
  /** MySQL/MariaDB: the (gram, key) table and its key column. */
  gramsTable: string;
  gramsKey: string;
  /** SQLite: the FTS5 trigram table (its rowid is the key) and its fts5vocab 'row' table. */
  ftsTable: string;
  ftsVocabTable: string;
  /** The searched table's key column, qualified as the list query writes it. */
  keyColumn: string;
}

/** How many rows the database expects to hold each trigram (from its index statistics). */
async function estimates(db: Database, index: TrigramIndex, grams: readonly string[]): Promise<number[]> {
  if (db.dialect === 'mysql') {
    // EXPLAIN reads no rows: the optimizer dives into the (gram, key) index at each end of the
    // range, exact for a rare trigram and within a small factor for a common one.
    const sql = grams
      .map((g) => `SELECT 1 FROM ${index.gramsTable} WHERE gram = ${db.sequelize.escape(g)}`)
      .join(' UNION ALL ');
    const rows = await db.sequelize.query<{ id: number | null; rows: number | string | null }>(`EXPLAIN ${sql}`, {
      type: QueryTypes.SELECT,
    });
    const byId = new Map(rows.filter((r) => r.id !== null).map((r) => [Number(r.id), Number(r.rows ?? 0)]));
    return grams.map((_, i) => byId.get(i + 1) ?? 0);
  }
  // fts5vocab counts the rows holding each (case-folded) trigram exactly.
  const rows = await db.sequelize.query<{ term: string; doc: number }>(
    `SELECT term, doc FROM ${index.ftsVocabTable} WHERE term IN (${grams.map((g) => db.sequelize.escape(g.toLowerCase())).join(', ')})`,
    { type: QueryTypes.SELECT },
  );
  const byTerm = new Map(rows.map((r) => [r.term, Number(r.doc)]));
  return grams.map((g) => byTerm.get(g.toLowerCase()) ?? 0);
}

/** What the index knows about a term: its trigrams, rarest first, and how many rows hold each. */
export interface TermEstimate {
  term: string;
  grams: Array<{ gram: string; rows: number }>;
}

export async function estimateTerm(db: Database, index: TrigramIndex, term: string): Promise<TermEstimate | null> {
  const grams = probed(trigramsOf(term));
  if (grams.length === 0) return null;
  const rows = await estimates(db, index, grams);
  const ranked = grams.map((gram, i) => ({ gram, rows: rows[i] ?? 0 })).sort((a, b) => a.rows - b.rows);
  return { term, grams: ranked };
}

/** The rows holding the term's rarest trigram: the most candidates the index can hand over. */
export const candidateRows = (e: TermEstimate) => e.grams[0]?.rows ?? 0;

/**
 * True when reading the index's candidates costs less than scanning `scanRows` rows (what the
 * LIKE-only plan reads before it has what it needs).
 */
export const indexIsCheaper = (e: TermEstimate, scanRows: number) => candidateRows(e) * INDEX_ROW_COST <= scanRows;

/** A condition keeping the rows that may contain the term (a superset of the LIKE's matches). */
export function candidates(db: Database, index: TrigramIndex, e: TermEstimate): WhereOptions {
  if (db.dialect === 'mysql') {
    // The rarest trigram alone: its rows come in key order, so the database can stop at a
    // LIMIT. Requiring more trigrams (a join per candidate) was measured slower at a million
    // users: the joins must all run before the first row is checked, and names' trigrams
    // travel together (every "hop" is in "hopper"), so they rarely shrink the candidates.
    const rarest = e.grams[0]?.gram ?? '';
    return literal(
      `${index.keyColumn} IN (SELECT g.${index.gramsKey} FROM ${index.gramsTable} AS g WHERE g.gram = ${db.sequelize.escape(rarest)})`,
    );
  }
  // One FTS5 phrase: rows whose name or e-mail holds the term's trigrams in sequence.
  const phrase = `"${e.term.replace(/"/g, '""')}"`;
  return literal(
    `${index.keyColumn} IN (SELECT rowid FROM ${index.ftsTable} WHERE ${index.ftsTable} MATCH ${db.sequelize.escape(phrase)})`,
  );
}
