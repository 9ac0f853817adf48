import type { Migration } from './migration.js';

/**
 * The name and e-mail sort indexes carry the creation date after the id (issue 41; docs/database.md,
 * "Indexes"): (deleted_at, name, id, created_at) and (deleted_at, email, id, created_at). A list
 * filtered by creation date and sorted by name or e-mail walks its sort's index in order and
 * decides the date on each entry, never reading a user's row to skip it.
 *
 * Why: a month sorted by name on page 1 000 either walked the name index with a row lookup per
 * entry to read the date (about 384 000 entries at any size), or read the month's users from the
 * date index, a lookup each for the name, and sorted them. At a million users the read and sort
 * took 98–138 ms and the walk 0.80 s; at three million the month holds three times the users and
 * the sort took 2.6 s, at ten million the walk 1.7 s (docs/PERFORMANCE.md, growth table). The walk
 * on the covering index takes 49 ms at a million, and its cost does not grow with the table: it
 * reads (offset + page) ÷ the filter's share of the users entries, whatever the total.
 *
 * On MariaDB each index is replaced in one ALTER that lets writes through while it builds
 * (ALGORITHM=INPLACE, LOCK=NONE): the old index serves reads until the new one takes its name at
 * the end. SQLite drops and creates each (one write transaction: the embedded engine serves small
 * organisations, where that is a moment).
 */
const INDEXES = [
  ['users_deleted_name', 'name'],
  ['users_deleted_email', 'email'],
] as const;

const columns = (sort: string, covering: boolean) => `deleted_at, ${sort}, id${covering ? ', created_at' : ''}`;

async function replace(ctx: Parameters<Migration['up']>[0], covering: boolean): Promise<void> {
  const q = (sql: string) => ctx.qi.sequelize.query(sql);
  if (ctx.dialect === 'mysql') {
    const changes = INDEXES.flatMap(([name, sort]) => [
      `DROP INDEX ${name}`,
      `ADD INDEX ${name} (${columns(sort, covering)})`,
    ]);
    ctx.progress?.(`users: rebuilding ${INDEXES.map(([name]) => name).join(' and ')} with writes allowed`);
    await q(`ALTER TABLE users ${changes.join(', ')}, ALGORITHM=INPLACE, LOCK=NONE`);
    return;
  }
  for (const [name, sort] of INDEXES) {
    await q(`DROP INDEX IF EXISTS ${name}`);
    await q(`CREATE INDEX ${name} ON users (${columns(sort, covering)})`);
  }
}

export const sortIndexesCoverCreation: Migration = {
  name: '0037-sort-indexes-cover-creation',
  up: (ctx) => replace(ctx, true),
  down: (ctx) => replace(ctx, false),
};
