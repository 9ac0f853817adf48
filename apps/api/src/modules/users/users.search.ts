import { LIST_COUNT_BOUND, type UsersListQuery, type UsersStats } from '@app/contracts';
import type { WhereOptions } from 'sequelize';
import type { Database } from '../../db/database.js';
import { FTS_TABLE, GRAMS_TABLE } from '../../db/migrations/0007-user-search-index.js';
import {
  candidateRows,
  candidates,
  estimateTerm,
  indexIsCheaper,
  NARROWING,
  type Narrowing,
  type TermEstimate,
  type TrigramIndex,
} from '../../query/trigram-search.js';

/** The users' trigram index (migration 0007), over name and e-mail together. */
const USERS_INDEX: TrigramIndex = {
  gramsTable: GRAMS_TABLE,
  gramsKey: 'user_id',
  ftsTable: FTS_TABLE,
  ftsVocabTable: `${FTS_TABLE}_vocab`,
  keyColumn: '`User`.`id`',
};

/** What a read needs from the matches: it decides whether walking rows or the index is cheaper. */
export type SearchNeed =
  /** One page in the query's order; `matches`, when the count is known (a lower bound will do). */
  | { kind: 'page'; offset: number; limit: number; matches?: number }
  /** A count that stops at `limit`. */
  | { kind: 'count'; limit: number }
  /** Every match, once (an exact count). */
  | { kind: 'all' }
  /** Every match in keyset batches of `size` (an export): each batch reads the candidates again. */
  | { kind: 'batches'; size: number };

export interface UsersSearch {
  /** The searched term the index knows least rows for; null when no term has a trigram. */
  estimate: TermEstimate | null;
  /** Rows in the table, trashed ones included (the index holds them all). */
  rows: number;
}

/**
 * Asks the index about every substring term of the query (`q`, and the name and e-mail
 * "contains" filters: both columns' trigrams are in the one index, so it narrows each), and
 * keeps the most selective. Terms under three characters have no trigram and are left to LIKE.
 */
export async function estimateUsersSearch(
  db: Database,
  query: Pick<UsersListQuery, 'q' | 'filters'>,
  stats: Required<UsersStats>,
  narrowing: Narrowing = NARROWING,
): Promise<UsersSearch> {
  return { estimate: await bestTermEstimate(db, searchTerms(query), narrowing), rows: stats.total + stats.trashed };
}

/** The terms the index can narrow: `q` and the "contains" filters, three characters or more. */
export const searchTerms = (query: Pick<UsersListQuery, 'q' | 'filters'>): string[] =>
  [query.q, textOf(query.filters.name), textOf(query.filters.email)].filter(
    (t): t is string => typeof t === 'string' && Array.from(t).length >= 3,
  );

/** The most selective term's estimate (`estimateUsersSearch` without the counters); null when no term. */
export function bestEstimate(db: Database, query: Pick<UsersListQuery, 'q' | 'filters'>): Promise<TermEstimate | null> {
  return bestTermEstimate(db, searchTerms(query));
}

/** The estimate of the term the index knows least rows for, among `terms` (substrings of name or e-mail). */
export async function bestTermEstimate(
  db: Database,
  terms: readonly string[],
  narrowing: Narrowing = NARROWING,
): Promise<TermEstimate | null> {
  let best: TermEstimate | null = null;
  for (const term of terms.filter((t) => Array.from(t).length >= 3)) {
    const e = await estimateTerm(db, USERS_INDEX, term, narrowing);
    if (e && (!best || candidateRows(e) < candidateRows(best))) best = e;
  }
  return best;
}

const textOf = (f: UsersListQuery['filters']['name']) => (f?.kind === 'contains' ? f.value : null);

/**
 * The index's candidate condition, when reading candidates is cheaper than what the LIKE scan
 * would read for `need` (the scan stops once it has found what it needs; matches are assumed
 * spread evenly through it). Null: let the scan answer.
 */
export function searchCondition(db: Database, search: UsersSearch, need: SearchNeed): WhereOptions | null {
  const { estimate, rows } = search;
  if (!estimate) return null;
  // How densely matches lie in the scan: counted when known, else the rarest trigram's rows (an
  // upper bound: a long term's rows hold several trigrams, and far fewer hold them in sequence).
  const known = need.kind === 'page' ? need.matches : undefined;
  const density = Math.max(known ?? candidateRows(estimate), 1) / Math.max(rows, 1);
  // What the scan reads, over how many times the index's candidates would be read.
  const [scanRows, reads] =
    need.kind === 'all'
      ? [rows, 1]
      : need.kind === 'batches'
        ? [rows, Math.max(1, Math.ceil(candidateRows(estimate) / need.size))]
        : need.kind === 'count'
          ? // A count reads until `limit` matches or to the end. The density above is an upper
            // bound: when the matches are rarer (a term whose rarest trigram also sits in many
            // other names), or fewer than `limit`, the scan reads the whole table (10 M users,
            // "grace.ho": 12 s, against 397 ms through its 291 000 candidates). Judged by that
            // worst case, as the candidates are judged by theirs.
            [rows, 1]
          : [Math.min(rows, (need.offset + need.limit) / density), 1];
  return indexIsCheaper(estimate, scanRows / reads) ? candidates(db, USERS_INDEX, estimate) : null;
}

/**
 * Candidates few enough to check every one: the page and its exact total come from one read.
 * (MariaDB estimates a large range at up to twice its rows: 26 124 for 13 065.)
 */
const CHECK_ALL_MAX = 3 * LIST_COUNT_BOUND;

/**
 * True when the page should be read through the index's candidates together with the total
 * (`COUNT(*) OVER ()`): there are few candidates, or the page would be read through them anyway
 * (a deep page), so checking them all once costs less than a count and a page apart.
 */
export function pageWithTotal(db: Database, search: UsersSearch, offset: number, limit: number): boolean {
  if (!search.estimate) return false;
  return (
    candidateRows(search.estimate) <= CHECK_ALL_MAX ||
    searchCondition(db, search, { kind: 'page', offset, limit }) !== null
  );
}

/** The index's candidate condition whatever it costs (the property tests and the bench's EXPLAIN). */
export function indexedSearchCondition(db: Database, search: UsersSearch): WhereOptions | null {
  return search.estimate ? candidates(db, USERS_INDEX, search.estimate) : null;
}
