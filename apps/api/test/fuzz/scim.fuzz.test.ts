import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine } from '../support/test-db.js';
import { FuzzWorld, fuzz, printSurvey } from './fuzz-world.js';
import { coverageFloor } from './fuzz-oracle.js';
import type { RestOperation } from './rest-requests.js';
import { refResolver } from './rest-requests.js';
import { scimOperationsOf, scimRequest } from './scim-requests.js';

/**
 * The REST fuzzer's machinery over the SCIM door (issue 39): every SCIM operation of the OpenAPI
 * document, sent by nobody, a viewer or an administrator (by token; a cookie now and then, which
 * the door refuses), with hostile bodies, ids, headers and filters from a SCIM filter grammar.
 * Every answer must hold fuzz-oracle.ts's properties as the SCIM door's: never a 5xx, no leak,
 * under 2 s, a documented status, and every refusal a SCIM error (`schemas` holding the Error
 * URN, `status` the status as a string).
 *
 * 1 500 requests on SQLite, half that on MySQL (FUZZ_SCALE overrides; FUZZ_SEED replays a run).
 */
const REQUESTS = 1_500;

let world: FuzzWorld;
let operations: RestOperation[];
let resolve: ReturnType<typeof refResolver>;

beforeAll(async () => {
  world = await FuzzWorld.start();
  const doc = (await world.t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  operations = scimOperationsOf(doc);
  resolve = refResolver(doc);
}, 120_000);
afterAll(async () => {
  printSurvey(world.tally);
  console.log(world.tally.line(`fuzz SCIM (${engine()})`));
  await world?.close();
});

describe('the SCIM fuzzer', () => {
  it('reads every SCIM operation from the OpenAPI document', () => {
    const routes = operations.map((op) => `${op.method} ${op.path}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/scim/v2/Users',
        'POST /api/scim/v2/Users',
        'PATCH /api/scim/v2/Users/{id}',
        'GET /api/scim/v2/Groups',
        'PATCH /api/scim/v2/Groups/{id}',
        'GET /api/scim/v2/ServiceProviderConfig',
      ]),
    );
    expect(operations.length).toBeGreaterThanOrEqual(17);
    for (const op of operations.filter((o) => ['POST', 'PUT', 'PATCH'].includes(o.method))) {
      expect(op.body, `${op.method} ${op.path}`).not.toBeNull();
    }
  });

  it('never gets a 5xx, a slow answer, a leak or a refusal outside SCIM’s shape, from any SCIM route', async () => {
    const ctx = (hostility: number) => ({ resolve: (ref: string) => resolve(ref), hints: world.hints(), hostility });
    const request = fc.oneof(
      ...[
        [4, 0.02],
        [3, 0.1],
        [2, 0.35],
      ].map(([weight, hostility]) => ({
        weight: weight as number,
        arbitrary: fc.oneof(...operations.map((op) => scimRequest(op, ctx(hostility as number)))),
      })),
    );
    const sent = await fuzz(world, request, REQUESTS);
    expect(world.tally.requests).toBeGreaterThanOrEqual(sent);
    // Every operation was reached: the fuzzer did not fuzz a fraction of the door.
    const floor = coverageFloor(sent, operations.length);
    for (const op of operations) {
      expect(world.tally.byTarget.get(`${op.method} ${op.path}`) ?? 0, `${op.method} ${op.path}`).toBeGreaterThan(
        floor,
      );
    }
  }, 600_000);
});
