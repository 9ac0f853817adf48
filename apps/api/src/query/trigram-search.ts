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

/**
 * A second trigram whose rows the rarest one's candidates are first checked against, inside the
 * index: `kept` is the share of a sample of the rarest trigram's rows that hold it too.
 */
export interface GramPartner {
  gram: string;
  kept: number;
}

/** What the index knows about a term: its trigrams, rarest first, and how many rows hold each. */
export interface TermEstimate {
  term: string;
  grams: Array<{ gram: string; rows: number }>;
  /** MySQL/MariaDB: the trigram that narrows the rarest one's rows inside the index; null: none does. */
  partner: GramPartner | null;
}

/**
 * When the rarest trigram's rows are worth narrowing inside the index before any row of the
 * searched table is read: from how many rows, and at most what share of them a partner may keep.
 */
export interface Narrowing {
  from: number;
  keepAtMost: number;
}

/**
 * From 2 000 rows: below that the candidates cost a few milliseconds at any size. Half: a partner
 * keeping more costs its probes without saving enough lookups (names' trigrams travel together:
 * nearly every "opp" is in a "hopper", which also holds "per").
 */
export const NARROWING: Narrowing = { from: 2_000, keepAtMost: 0.5 };
/** Rows of the rarest trigram a partner is measured on: a share of 0.15 to within about ±0.04. */
const SAMPLE = 250;
/** A LIMIT no candidate set reaches, which only keeps a derived table from being merged. */
const UNMERGED = 4_294_967_295;
/** Partners measured: the next rarest trigrams. */
const PARTNERS = 2;

export async function estimateTerm(
  db: Database,
  index: TrigramIndex,
  term: string,
  narrowing: Narrowing = NARROWING,
): Promise<TermEstimate | null> {
  const grams = probed(trigramsOf(term));
  if (grams.length === 0) return null;
  const rows = await estimates(db, index, grams);
  const ranked = grams.map((gram, i) => ({ gram, rows: rows[i] ?? 0 })).sort((a, b) => a.rows - b.rows);
  const partner = db.dialect === 'mysql' ? await partnerOf(db, index, ranked, narrowing) : null;
  return { term, grams: ranked, partner };
}

/**
 * The next rarest trigram that keeps the smallest share of a sample of the rarest one's rows (each
 * probed by the index's key), when that share is small enough to be worth the probes. The
 * rarest trigram of an e-mail ("001": 2 890 rows at a million users) grows with the table, and
 * each of its rows is a lookup into a users table that outgrows the buffer pool; the probes stay
 * inside the other trigram's range of the (gram, key) index, in key order.
 */
async function partnerOf(
  db: Database,
  index: TrigramIndex,
  ranked: ReadonlyArray<{ gram: string; rows: number }>,
  narrowing: Narrowing,
): Promise<GramPartner | null> {
  const rarest = ranked[0];
  const others = ranked.slice(1, 1 + PARTNERS);
  if (!rarest || others.length === 0 || rarest.rows < narrowing.from) return null;
  const { gramsTable: table, gramsKey: key } = index;
  const esc = (v: string) => db.sequelize.escape(v);
  const held = others.map(
    ({ gram }, i) =>
      `SUM(EXISTS (SELECT 1 FROM ${table} AS p WHERE p.gram = ${esc(gram)} AND p.${key} = s.${key})) AS k${i}`,
  );
  const [row] = await db.sequelize.query<Record<string, number | string | null>>(
    `SELECT COUNT(*) AS n, ${held.join(', ')}
       FROM (SELECT ${key} FROM ${table} WHERE gram = ${esc(rarest.gram)} ORDER BY ${key} LIMIT ${SAMPLE}) AS s`,
    { type: QueryTypes.SELECT },
  );
  const n = Number(row?.n ?? 0);
  if (n === 0) return null;
  // One more kept and sampled (Laplace's rule): a share above zero, as the rows it stands for may hold some.
  const shares = others.map(({ gram }, i) => ({ gram, kept: (Number(row?.[`k${i}`] ?? 0) + 1) / (n + 1) }));
  const best = shares.reduce((a, b) => (b.kept < a.kept ? b : a));
  return best.kept <= narrowing.keepAtMost ? best : null;
}

/** The rows the index hands over: the rarest trigram's, or the share of them its partner keeps. */
export const candidateRows = (e: TermEstimate) => {
  const rows = e.grams[0]?.rows ?? 0;
  return e.partner ? Math.ceil(rows * Math.min(1, e.partner.kept)) : rows;
};

/**
 * True when reading the index's candidates costs less than scanning `scanRows` rows (what the
 * LIKE-only plan reads before it has what it needs). A partner's probe, inside the index, costs
 * about what a scanned row does.
 */
export const indexIsCheaper = (e: TermEstimate, scanRows: number) =>
  candidateRows(e) * INDEX_ROW_COST + (e.partner ? (e.grams[0]?.rows ?? 0) : 0) <= scanRows;

/** A condition keeping the rows that may contain the term (a superset of the LIKE's matches). */
export function candidates(db: Database, index: TrigramIndex, e: TermEstimate): WhereOptions {
  if (db.dialect === 'mysql') {
    // The rarest trigram alone: its rows come in key order, so the database can stop at a
    // LIMIT. Requiring every trigram (a join each) was measured slower at a million users: the
    // joins must all run before the first row is checked, and names' trigrams travel together
    // (every "hop" is in "hopper"), so they rarely shrink the candidates. One partner is joined
    // only when a sample shows it keeps few of them (partnerOf).
    const rarest = db.sequelize.escape(e.grams[0]?.gram ?? '');
    const { gramsTable: table, gramsKey: key } = index;
    if (!e.partner)
      return literal(`${index.keyColumn} IN (SELECT g.${key} FROM ${table} AS g WHERE g.gram = ${rarest})`);
    // With a partner, the rarest trigram's rows that also hold the partner's: one probe each into
    // the partner's range of the same index, before any row of the searched table is read. The
    // LIMIT keeps the derived table from being merged: merged, MariaDB read each user's row first
    // and probed the partner after, which saved nothing.
    const partner = db.sequelize.escape(e.partner.gram);
    return literal(
      `${index.keyColumn} IN (SELECT c.${key} FROM (SELECT g.${key} FROM ${table} AS g JOIN ${table} AS p ON p.gram = ${partner} AND p.${key} = g.${key} WHERE g.gram = ${rarest} LIMIT ${UNMERGED}) AS c)`,
    );
  }
  // One FTS5 phrase: rows whose name or e-mail holds the term's trigrams in sequence.
  const phrase = `"${e.term.replace(/"/g, '""')}"`;
  return literal(
    `${index.keyColumn} IN (SELECT rowid FROM ${index.ftsTable} WHERE ${index.ftsTable} MATCH ${db.sequelize.escape(phrase)})`,
  );
}
