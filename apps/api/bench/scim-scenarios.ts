import { demoUser } from '../src/seed/demo-data.js';
import type { BenchContext, ExportScenario, HttpRequestSpec, HttpScenario } from './scenarios.js';
import { CREATED_DOMAIN, emptyGroup, eraseCreatedUsers, SCIM_PATH } from './scim-seed.js';

/**
 * Issue 39's performance table: what an identity provider sends the SCIM door most — a lookup by
 * userName or externalId before each create, a search on a name part, a create, a deactivation, a
 * group membership change — and a reconciliation's full cursor walk. Bodies are shaped as Entra
 * ID sends them (Entra never sends a password: a create hashes none).
 */

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
/** Write-pool users each PATCH scenario rotates over: few, so each is changed again and again. */
const ACTIVE_SET = 200;
const MEMBER_SET = 100;

const scimGet = (path: string, filter: string): HttpRequestSpec => ({
  method: 'GET',
  path: `${SCIM_PATH}${path}?filter=${encodeURIComponent(filter)}`,
});

/** The live demo user nearest the middle (a deleted one's lookup would find nothing). */
function middleUserName(ctx: Pick<BenchContext, 'users'>): string {
  for (let i = Math.max(1, Math.ceil(ctx.users / 2)); i <= ctx.users; i++) {
    const u = demoUser(i);
    if (!u.deleted_at) return u.email;
  }
  return demoUser(1).email;
}

const scimData = (ctx: BenchContext) => {
  if (!ctx.scim) throw new Error('the SCIM scenarios need their data prepared (BenchContext.scim)');
  return ctx.scim;
};

/** The write pool's last users, kept apart from the slices the REST write scenarios use. */
const activeSet = (ctx: BenchContext) => ctx.writePool.slice(-ACTIVE_SET);
const memberSet = (ctx: BenchContext) => ctx.writePool.slice(-(ACTIVE_SET + MEMBER_SET), -ACTIVE_SET);

/** The i-th element of `set`, and whether this is an odd pass over it (pass 0 changes, pass 1 puts back). */
function rotate(set: readonly number[], i: number): { id: number; back: boolean } {
  if (set.length === 0) throw new Error('the write pool is empty: no user to change');
  return { id: set[i % set.length] as number, back: Math.floor(i / set.length) % 2 === 1 };
}

function createUser(ctx: BenchContext, i: number): HttpRequestSpec {
  const tag = `${scimData(ctx).runTag}-${i}`;
  const email = `scim.${tag}@${CREATED_DOMAIN}`;
  return {
    method: 'POST',
    path: `${SCIM_PATH}/Users`,
    body: {
      schemas: [USER],
      externalId: `bench-new-${tag}`,
      userName: email,
      active: true,
      displayName: 'Grace Hopper',
      name: { givenName: 'Grace', familyName: 'Hopper' },
      emails: [{ primary: true, type: 'work', value: email }],
    },
  };
}

/** Okta's deactivation (no path, an object value); the next pass reactivates. */
function patchActive(ctx: BenchContext, i: number): HttpRequestSpec {
  const { id, back } = rotate(activeSet(ctx), i);
  return {
    method: 'PATCH',
    path: `${SCIM_PATH}/Users/${id}`,
    body: { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: back } }] },
  };
}

/** Entra's membership change (capitalised op, a value list): one pass adds, the next removes. */
function patchMembers(ctx: BenchContext, i: number): HttpRequestSpec {
  const { id, back } = rotate(memberSet(ctx), i);
  return {
    method: 'PATCH',
    path: `${SCIM_PATH}/Groups/${scimData(ctx).groupId}`,
    body: {
      schemas: [PATCH_OP],
      Operations: [{ op: back ? 'Remove' : 'Add', path: 'members', value: [{ value: String(id) }] }],
    },
  };
}

function read(name: string, title: string, ms: number, request: (ctx: BenchContext) => HttpRequestSpec): HttpScenario {
  return { kind: 'http', name, title, target: { kind: 'p50', ms }, floor: true, scim: true, request };
}

function write(
  name: string,
  title: string,
  vary: (ctx: BenchContext, i: number) => HttpRequestSpec,
  after?: HttpScenario['after'],
): HttpScenario {
  return {
    kind: 'http',
    name,
    title,
    target: { kind: 'p50', ms: 50 },
    floor: false,
    // Each request really changes rows; the harness reactivates the write pool after.
    writes: true,
    scim: true,
    request: (ctx) => vary(ctx, 0),
    vary,
    ...(after ? { after } : {}),
  };
}

export function scimScenarios(): HttpScenario[] {
  return [
    read('scim-username-eq', 'SCIM GET /Users, filter userName eq (a whole e-mail)', 20, (ctx) =>
      scimGet('/Users', `userName eq "${middleUserName(ctx)}"`),
    ),
    read('scim-externalid-eq', 'SCIM GET /Users, filter externalId eq', 20, (ctx) =>
      scimGet('/Users', `externalId eq "${scimData(ctx).externalId}"`),
    ),
    read('scim-familyname-co', 'SCIM GET /Users, filter name.familyName co "hopp"', 150, () =>
      scimGet('/Users', 'name.familyName co "hopp"'),
    ),
    // The users it makes are erased after it (and at the end of the run): the others count 1 M.
    write('scim-create', 'SCIM POST /Users (new e-mail each)', createUser, async (_ctx, conn) => {
      await eraseCreatedUsers(conn);
    }),
    write('scim-patch-active', 'SCIM PATCH /Users/{id} active false, then true', patchActive),
    write('scim-patch-members', 'SCIM PATCH /Groups/{id} add, then remove a member', patchMembers, (ctx) =>
      emptyGroup(ctx),
    ),
  ];
}

/** A reconciliation: every user, 1 000 a page, following nextCursor to the end (RFC 9865). */
export function scimCursorWalk(): ExportScenario {
  return {
    kind: 'export',
    name: 'scim-cursor-walk',
    title: 'SCIM GET /Users, cursor walk of every user, count=1000',
    target: { kind: 'download', seconds: 180, rssMb: 200 },
    format: 'json',
    walk: 'scim-cursor',
    path: () => `${SCIM_PATH}/Users?count=1000`,
  };
}
