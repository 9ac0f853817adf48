import { Readable } from 'node:stream';
import type mysql from 'mysql2/promise';

type Connection = mysql.Connection;

/**
 * The tables a user's insert feeds through triggers, rebuilt from `users` and `user_roles` in
 * one pass each — what makes seeding ten million users a matter of minutes: fired once per row,
 * the triggers write the search grams (about 33 per user), the list keys per role and the
 * counters one user at a time, into indexes far larger than the buffer pool.
 *
 * Only for a database the bench owns, while nothing else writes to it: the triggers on `users`
 * and `user_roles` are dropped for the load (`withoutTriggers`) and put back as they were.
 */

/** A trigger as the server keeps it: what recreates it, under the SQL mode it was made with. */
interface SavedTrigger {
  name: string;
  create: string;
  sqlMode: string;
}

const FED_TABLES = ['users', 'user_roles'] as const;

const seconds = (since: number) => (Date.now() - since) / 1000;

/**
 * Runs `load` with the triggers on `users` and `user_roles` dropped, then creates them again in
 * their order (creation order is firing order for a table's triggers of one event and timing),
 * whether `load` succeeded or not.
 */
export async function withoutTriggers<T>(conn: Connection, load: () => Promise<T>): Promise<T> {
  const [rows] = await conn.query<mysql.RowDataPacket[]>(
    `SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS
      WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE IN (?)
      ORDER BY EVENT_OBJECT_TABLE, ACTION_TIMING, EVENT_MANIPULATION, ACTION_ORDER`,
    [FED_TABLES],
  );
  const saved: SavedTrigger[] = [];
  for (const { name } of rows) {
    const [[shown]] = (await conn.query(`SHOW CREATE TRIGGER \`${String(name)}\``)) as unknown as [
      [Record<string, string>],
    ];
    saved.push({
      name: String(name),
      create: String(shown['SQL Original Statement']),
      sqlMode: String(shown.sql_mode),
    });
  }
  for (const t of saved) await conn.query(`DROP TRIGGER \`${t.name}\``);
  try {
    return await load();
  } finally {
    const [[mode]] = (await conn.query('SELECT @@SESSION.sql_mode AS m')) as unknown as [[{ m: string }]];
    for (const t of saved) {
      await conn.query('SET SESSION sql_mode = ?', [t.sqlMode]);
      await conn.query(t.create);
    }
    await conn.query('SET SESSION sql_mode = ?', [mode.m]);
  }
}

/**
 * Runs `load` with `table`'s secondary indexes dropped, then adds them back in one ALTER, which
 * builds each by sorting: loaded through them, every row lands at a random place of every index,
 * and at ten million users those indexes outgrow the buffer pool. An index a foreign key needs
 * (the first whose leading column is the key's, when the primary key does not lead with it)
 * stays.
 */
export async function withIndexesBuiltAfter<T>(
  conn: Connection,
  table: string,
  log: (s: string) => void,
  load: () => Promise<T>,
): Promise<T> {
  const [[shown]] = (await conn.query(`SHOW CREATE TABLE \`${table}\``)) as unknown as [[Record<string, string>]];
  const definitions = String(shown['Create Table'])
    .split('\n')
    .map((line) => line.trim().replace(/,$/, ''))
    .filter((line) => /^(UNIQUE )?KEY `/.test(line));
  const [fkRows] = await conn.query<mysql.RowDataPacket[]>(
    `SELECT COLUMN_NAME AS col FROM information_schema.KEY_COLUMN_USAGE
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND REFERENCED_TABLE_NAME IS NOT NULL`,
    [table],
  );
  const [pkRows] = await conn.query<mysql.RowDataPacket[]>(
    `SELECT COLUMN_NAME AS col FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME = 'PRIMARY' AND SEQ_IN_INDEX = 1`,
    [table],
  );
  const leading = (definition: string) => /\(`([^`]+)`/.exec(definition)?.[1];
  const kept = new Set<string>();
  for (const { col } of fkRows) {
    if (pkRows.some((r) => r.col === col)) continue;
    const serving = definitions.find((d) => leading(d) === col);
    if (serving) kept.add(serving);
  }
  const dropped = definitions.filter((d) => !kept.has(d));
  if (dropped.length === 0) return load();
  const name = (definition: string) => /KEY `([^`]+)`/.exec(definition)?.[1] as string;
  await conn.query(`ALTER TABLE \`${table}\` ${dropped.map((d) => `DROP INDEX \`${name(d)}\``).join(', ')}`);
  try {
    return await load();
  } finally {
    const started = Date.now();
    await conn.query(`ALTER TABLE \`${table}\` ${dropped.map((d) => `ADD ${d}`).join(', ')}`);
    log(`  ${table}: ${dropped.length} indexes built in ${seconds(started).toFixed(1)} s`);
  }
}

/** Users read per query while their grams are gathered. */
const GRAMS_USERS_PER_READ = 50_000;
/** Bytes of grams sent as one packet of LOAD DATA LOCAL. */
const PIECE_BYTES = 1 << 20;
/** users.email is VARCHAR(255): the search triggers' positions go no further. */
const MAX_POSITIONS = 255;

/**
 * A gram as utf8mb4_unicode_ci compares it, for the characters the demo users are made of: ASCII
 * letters whatever their case, digits, the e-mail's punctuation and a space, and Latin letters
 * with an accent (equal to their base letter). The index's primary key is (gram, user_id) under
 * that collation and every search compares grams through it, so the key is stored in place of
 * the spelling the triggers would keep (the first met): the two are equal to every reader. A
 * character outside that set stops the load: its equality under the collation is not known here.
 */
function gramKey(gram: string): string {
  const key = gram.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  if (!/^[a-z0-9 .@'_+-]{3}$/.test(key)) {
    throw new Error(`bulk search index: ${JSON.stringify(gram)} holds a character whose collation is not known here`);
  }
  return key;
}

/** The user ids holding each gram, ascending (users are read in id order). */
class GramPostings {
  private readonly lists = new Map<string, { ids: Uint32Array; n: number }>();
  rows = 0;

  add(gram: string, id: number) {
    let list = this.lists.get(gram);
    if (!list) {
      list = { ids: new Uint32Array(64), n: 0 };
      this.lists.set(gram, list);
    }
    if (list.n === list.ids.length) {
      const grown = new Uint32Array(list.ids.length * 2);
      grown.set(list.ids);
      list.ids = grown;
    }
    list.ids[list.n++] = id;
    this.rows++;
  }

  /** Every (gram, id) as `gram\tid\n` lines, gram by gram, each gram's ids ascending: in the primary key's order. */
  *lines(): Generator<Buffer> {
    let text = '';
    for (const gram of [...this.lists.keys()].sort()) {
      const list = this.lists.get(gram) as { ids: Uint32Array; n: number };
      for (let i = 0; i < list.n; i++) {
        text += `${gram}\t${list.ids[i]}\n`;
        if (text.length >= PIECE_BYTES) {
          // One packet of the protocol per piece: under its 16 MB limit and max_allowed_packet.
          yield Buffer.from(text);
          text = '';
        }
      }
      this.lists.delete(gram);
    }
    if (text) yield Buffer.from(text);
  }
}

/** A user's distinct grams (name, e-mail, given name, family name), as the search triggers index them. */
function addGrams(postings: GramPostings, id: number, texts: ReadonlyArray<string | null>) {
  const seen = new Set<string>();
  for (const text of texts) {
    if (text === null) continue;
    // Positions count characters, as CHAR_LENGTH and SUBSTRING do: by code point.
    const chars = /[\uD800-\uDFFF]/.test(text) ? Array.from(text) : text;
    const last = Math.min(chars.length - 2, MAX_POSITIONS);
    for (let i = 0; i < last; i++) {
      const key = gramKey(typeof chars === 'string' ? chars.slice(i, i + 3) : chars.slice(i, i + 3).join(''));
      if (seen.has(key)) continue;
      seen.add(key);
      postings.add(key, id);
    }
  }
}

/** Every user's grams, read `GRAMS_USERS_PER_READ` users at a time in id order. */
async function gatherGrams(conn: Connection, log: (s: string) => void): Promise<GramPostings> {
  const postings = new GramPostings();
  const started = Date.now();
  let lastLog = started;
  for (let after = 0; ; ) {
    const [rows] = await conn.query<mysql.RowDataPacket[]>(
      'SELECT id, name, email, given_name, family_name FROM users WHERE id > ? ORDER BY id LIMIT ?',
      [after, GRAMS_USERS_PER_READ],
    );
    if (rows.length === 0) return postings;
    for (const r of rows) addGrams(postings, Number(r.id), [r.name, r.email, r.given_name, r.family_name]);
    after = Number(rows[rows.length - 1]?.id);
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      log(`  search grams: users up to id ${after.toLocaleString('en')} read (${seconds(started).toFixed(0)} s)`);
    }
  }
}

export interface RebuildTimes {
  grams: number;
  roleKeys: number;
  counters: number;
}

/**
 * Rebuilds what the insert triggers of `users` and `user_roles` keep: the search grams, the list
 * keys per role, the role member counts and `user_stats`, each from scratch in one transaction,
 * rows arriving in primary-key order and secondary indexes built after. Refuses when users hold
 * attribute values: the list keys per enumeration value are not rebuilt here.
 */
export async function rebuildTriggerTables(conn: Connection, log: (s: string) => void): Promise<RebuildTimes> {
  const [[values]] = (await conn.query('SELECT EXISTS (SELECT 1 FROM user_attribute_values) AS held')) as unknown as [
    [{ held: number }],
  ];
  if (Number(values.held))
    throw new Error('rebuildTriggerTables: users hold attribute values, which it does not rebuild');
  await conn.query("SET SESSION unique_checks = 0, foreign_key_checks = 0, time_zone = '+00:00'");

  let started = Date.now();
  // Gathered here, sorted, and streamed in along the primary key: the server's own SUBSTRING …
  // DISTINCT costs 130 µs a user on one core, and rows in user order land all over an index
  // many times the buffer pool's size.
  const postings = await gatherGrams(conn, log);
  log(`  search grams: ${postings.rows.toLocaleString('en')} gathered in ${seconds(started).toFixed(0)} s; loading`);
  await conn.query('TRUNCATE TABLE user_search_grams');
  await conn.query('START TRANSACTION');
  await conn.query({
    sql: `LOAD DATA LOCAL INFILE 'user_search_grams' INTO TABLE user_search_grams CHARACTER SET utf8mb4
            FIELDS TERMINATED BY '\\t' ESCAPED BY '' LINES TERMINATED BY '\\n' (gram, user_id)`,
    infileStreamFactory: () => Readable.from(postings.lines()),
  });
  await conn.query('COMMIT');
  const grams = seconds(started);

  started = Date.now();
  await conn.query('TRUNCATE TABLE user_role_keys');
  await withIndexesBuiltAfter(conn, 'user_role_keys', log, async () => {
    await conn.query('START TRANSACTION');
    await conn.query(
      `INSERT INTO user_role_keys (user_id, role_id, deleted_at, is_active, created_at, name)
       SELECT u.id, ur.role_id, u.deleted_at, u.is_active, u.created_at, u.name
         FROM user_roles ur JOIN users u ON u.id = ur.user_id ORDER BY ur.user_id, ur.role_id`,
    );
    await conn.query('COMMIT');
  });
  const roleKeys = seconds(started);

  started = Date.now();
  await conn.query('START TRANSACTION');
  await conn.query('DELETE FROM role_member_counts');
  await conn.query(
    `INSERT INTO role_member_counts (role_id, slot, members)
     SELECT ur.role_id, ur.user_id % 16, COUNT(*)
       FROM user_roles ur JOIN users u ON u.id = ur.user_id AND u.deleted_at IS NULL
      GROUP BY ur.role_id, ur.user_id % 16`,
  );
  await conn.query(
    `UPDATE user_stats s, (SELECT COALESCE(SUM(deleted_at IS NULL), 0) AS total,
                                  COALESCE(SUM(deleted_at IS NULL AND is_active = 1), 0) AS active,
                                  COALESCE(SUM(deleted_at IS NOT NULL), 0) AS trashed FROM users) AS c
        SET s.total = c.total, s.active = c.active, s.trashed = c.trashed WHERE s.id = 1`,
  );
  await conn.query('COMMIT');
  return { grams, roleKeys, counters: seconds(started) };
}
