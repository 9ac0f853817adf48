import type mysql from 'mysql2/promise';
import { authHeaders } from './http-load.js';
import type { BenchContext } from './scenarios.js';

/**
 * What the SCIM scenarios (issue 39) need beyond the demo users, made before they run and undone
 * after, so that their writes leave the data the other scenarios read as it was.
 */
export interface ScimBenchData {
  /** The externalId `scim-externalid-eq` looks up: a live demo user's. */
  externalId: string;
  /** The group (a role with no permissions) whose members `scim-patch-members` adds and removes. */
  groupId: string;
  /** Tells this run's created users apart from any earlier run's (their e-mails carry it). */
  runTag: string;
}

export const SCIM_PATH = '/api/scim/v2';
const GROUP_NAME = 'SCIM bench members';
/** The users `scim-create` makes: a domain no demo user has, so they are found and erased after. */
export const CREATED_DOMAIN = 'scim-bench.example.com';
/**
 * The demo users don't carry external ids (the seed writes none): every 100th one gets
 * `bench-ext-<id>` here — 10 000 at a million users, so `externalId eq` reads a unique index of
 * some depth, not one holding a single entry. Idempotent: `--reuse` keeps them.
 */
const EXTERNAL_ID_EVERY = 100;
const EXTERNAL_ID_PREFIX = 'bench-ext-';

async function scimCall(ctx: BenchContext, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(ctx.baseUrl + SCIM_PATH + path, {
    method,
    headers: authHeaders(ctx, body !== undefined),
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(60_000),
  });
}

async function expectOk(res: Response, what: string): Promise<void> {
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
}

async function giveExternalIds(conn: mysql.Connection, ctx: BenchContext): Promise<string> {
  const { min, max } = ctx.demoIdRange;
  const first = Math.ceil(min / EXTERNAL_ID_EVERY) * EXTERNAL_ID_EVERY;
  const ids: number[] = [];
  for (let id = first; id <= max; id += EXTERNAL_ID_EVERY) ids.push(id);
  for (let i = 0; i < ids.length; i += 1_000) {
    await conn.query('UPDATE users SET external_id = CONCAT(?, id) WHERE id IN (?) AND external_id IS NULL', [
      EXTERNAL_ID_PREFIX,
      ids.slice(i, i + 1_000),
    ]);
  }
  // The live one nearest the middle of the demo users (a deleted user's lookup answers nothing).
  const [rows] = await conn.query<mysql.RowDataPacket[]>(
    'SELECT external_id FROM users WHERE id >= ? AND deleted_at IS NULL AND external_id LIKE ? ORDER BY id LIMIT 1',
    [Math.floor((min + max) / 2), `${EXTERNAL_ID_PREFIX}%`],
  );
  const found = rows[0]?.external_id;
  if (typeof found !== 'string') throw new Error('no live demo user with a bench external id');
  return found;
}

/** Deletes the bench group if an interrupted run left it (its members lose the role with it). */
async function dropGroup(ctx: BenchContext): Promise<void> {
  const filter = encodeURIComponent(`displayName eq "${GROUP_NAME}"`);
  const res = await scimCall(ctx, 'GET', `/Groups?filter=${filter}&excludedAttributes=members`);
  await expectOk(res, 'looking the bench group up');
  const body = (await res.json()) as { Resources?: Array<{ id: string }> };
  for (const g of body.Resources ?? []) await expectOk(await scimCall(ctx, 'DELETE', `/Groups/${g.id}`), 'deleting it');
}

/** Erases the users `scim-create` made, as the product's force delete does (the triggers keep the counters). */
export async function eraseCreatedUsers(conn: mysql.Connection): Promise<number> {
  const [res] = await conn.query<mysql.ResultSetHeader>('DELETE FROM users WHERE email LIKE ?', [
    `%@${CREATED_DOMAIN}`,
  ]);
  return res.affectedRows;
}

/** External ids, an empty bench group made over SCIM, and no user left by an earlier run. */
export async function prepareScim(conn: mysql.Connection, ctx: BenchContext): Promise<ScimBenchData> {
  await eraseCreatedUsers(conn);
  const externalId = await giveExternalIds(conn, ctx);
  await dropGroup(ctx);
  const res = await scimCall(ctx, 'POST', '/Groups', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    displayName: GROUP_NAME,
  });
  await expectOk(res, 'creating the bench group');
  const group = (await res.json()) as { id: string };
  return { externalId, groupId: group.id, runTag: Date.now().toString(36) };
}

/** Deletes the bench group and any user created over SCIM (the external ids stay, for --reuse). */
export async function cleanupScim(conn: mysql.Connection, ctx: BenchContext): Promise<void> {
  if (ctx.scim)
    await expectOk(await scimCall(ctx, 'DELETE', `/Groups/${ctx.scim.groupId}`), 'deleting the bench group');
  await eraseCreatedUsers(conn);
}

/** Empties the bench group over SCIM (as an identity provider would), after the membership load. */
export async function emptyGroup(ctx: BenchContext): Promise<void> {
  if (!ctx.scim) return;
  const res = await scimCall(ctx, 'PATCH', `/Groups/${ctx.scim.groupId}?excludedAttributes=members`, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'replace', path: 'members', value: [] }],
  });
  await expectOk(res, 'emptying the bench group');
}
