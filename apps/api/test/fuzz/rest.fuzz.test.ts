import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCIM_PATH_PREFIX } from '../../src/rest/openapi-scim.js';
import { engine } from '../support/test-db.js';
import { FUZZ_IMPORT_ENV, hostileImports } from './fuzz-import-files.js';
import { FuzzWorld, fuzz, printable, printSurvey, type Via, type Who } from './fuzz-world.js';
import { coverageFloor } from './fuzz-oracle.js';
import { operationsOf, type RestOperation, refResolver, restRequest, strayRequest } from './rest-requests.js';

/**
 * A fast-check fuzzer over every REST route, read from the OpenAPI document the product serves
 * (GET /api/openapi.json, generated from the procedures' `rest(...)` meta): a route added to
 * the router is fuzzed without a change here. Each request is sent as nobody, a viewer or an
 * administrator, and each answer must hold the properties of fuzz-oracle.ts; a failure prints
 * fast-check's shrunk counterexample (caller, method, URL, headers, body).
 *
 * 6 600 requests on SQLite (6 000 over every route, 600 concurrent writes; with the tRPC file's
 * 3 800, over 10 000 a run); half that on MySQL, to keep the two-engine suite short (FUZZ_SCALE
 * overrides; FUZZ_SEED replays a run).
 */
const REQUESTS = 6_000;
const CONCURRENT_REQUESTS = 600;

let world: FuzzWorld;
let operations: RestOperation[];

beforeAll(async () => {
  world = await FuzzWorld.start(FUZZ_IMPORT_ENV);
  const doc = (await world.t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  // The SCIM door answers in its own shape, with its own oracle: scim.fuzz.test.ts.
  operations = operationsOf(doc).filter((op) => !op.path.startsWith(SCIM_PATH_PREFIX));
  resolve = refResolver(doc);
}, 120_000);
afterAll(async () => {
  printSurvey(world.tally);
  console.log(world.tally.line(`fuzz REST (${engine()})`));
  await world?.close();
});

let resolve: ReturnType<typeof refResolver>;

describe('the REST fuzzer', () => {
  it('reads a non-trivial route table from the OpenAPI document', () => {
    const routes = operations.map((op) => `${op.method} ${op.path}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/users',
        'POST /api/users',
        'GET /api/users/{id}',
        'PUT /api/users/{id}',
        'DELETE /api/users/{id}',
        'POST /api/users/bulk',
        'GET /api/users/export',
        'GET /api/audit',
        'GET /api/audit/{id}',
        'POST /api/auth/login',
        'POST /api/tokens',
        'DELETE /api/users/{id}/tokens/{tokenId}',
        'GET /api/auth/sessions',
        'DELETE /api/users/{id}/sessions/{sessionId}',
        'GET /api/roles',
        'POST /api/roles',
        'PUT /api/roles/{id}',
        'DELETE /api/roles/{id}',
        'POST /api/roles/{id}/preview',
        'POST /api/roles/preview',
        'GET /api/roles/export',
        'GET /api/permissions',
        'GET /api/users/{id}/access',
      ]),
    );
    expect(operations.length).toBeGreaterThanOrEqual(20);
  });

  it('never gets a 5xx, a slow answer, a leak or an error outside the contract, from any route', async () => {
    // Mostly well-formed requests, which reach the handlers and rules, and some thoroughly hostile ones.
    const ctx = (hostility: number) => ({ resolve: (ref: string) => resolve(ref), hints: world.hints(), hostility });
    const request = fc.oneof(
      ...[
        [4, 0.02],
        [3, 0.1],
        [2, 0.35],
      ].map(([weight, hostility]) => ({
        weight: weight as number,
        arbitrary: fc.oneof(...operations.map((op) => restRequest(op, ctx(hostility as number)))),
      })),
      { weight: 1, arbitrary: strayRequest() },
    );
    const sent = await fuzz(world, request, REQUESTS);
    expect(world.tally.requests).toBeGreaterThanOrEqual(sent);
    // Every route was reached, by every caller: the fuzzer did not fuzz a fraction of the API.
    const floor = coverageFloor(sent, operations.length);
    for (const op of operations) {
      expect(world.tally.byTarget.get(`${op.method} ${op.path}`) ?? 0, `${op.method} ${op.path}`).toBeGreaterThan(
        floor,
      );
    }
    expect(world.tally.byCaller.size).toBe(6);
  }, 600_000);

  it('answers every file of the hostile import corpus as it must, every run', async () => {
    const op = operations.find((o) => o.method === 'POST' && o.path === '/api/users/imports') as RestOperation;
    expect(op).toBeDefined();
    await world.refresh();
    const callers: Array<{ who: Who; via: Via; expected?: number[] }> = [
      { who: 'admin', via: 'token' },
      { who: 'admin', via: 'cookie' },
      // Refused before the body is read: a file cannot get past the guard.
      { who: 'viewer', via: 'token', expected: [403] },
    ];
    for (const file of await hostileImports()) {
      for (const { who, via, expected } of callers) {
        const req = printable({
          method: 'POST',
          url: '/api/users/imports?dryRun=true',
          headers: { 'content-type': file.type },
          body: file.body,
          caller: { who, via },
          target: `${op.method} ${op.path}`,
          verdict: {
            door: 'rest',
            documented: op.statuses,
            procedure: op.operationId,
            expected: new Set(expected ?? file.expected),
          },
        });
        expect(await world.send(req), `${file.name} as ${who} via ${via}`).toEqual([]);
      }
    }
  }, 60_000);

  it('holds under concurrent writes by administrators to the same few users', async () => {
    // Batches of bulk operations, updates, (de)activations, deletions and restores of users 1–12,
    // sent at once: row locks, the last-administrator rule and the unique e-mail under contention
    // (a deadlock or a lost lock would surface as a 500 here).
    const few = fc.integer({ min: 1, max: 12 });
    const ctx = {
      resolve: (ref: string) => resolve(ref),
      hints: { ...world.hints(), id: few, ids: fc.uniqueArray(few, { minLength: 1, maxLength: 12 }) },
      hostility: 0.02,
    };
    const writes = operations.filter((op) => op.method !== 'GET' && op.path.startsWith('/api/users'));
    const only = {
      caller: fc.record({ who: fc.constant<Who>('admin'), via: fc.constantFrom<Via>('token', 'cookie') }),
      segment: few.map(String),
    };
    await fuzz(world, fc.oneof(...writes.map((op) => restRequest(op, ctx, only))), CONCURRENT_REQUESTS);
  }, 600_000);
});
