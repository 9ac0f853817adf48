import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../src/app/app-router.js';
import { engine } from '../support/test-db.js';
import { FuzzWorld, fuzz, printSurvey } from './fuzz-world.js';
import { coverageFloor } from './fuzz-oracle.js';
import { proceduresOf, trpcRequest } from './trpc-requests.js';

/**
 * A fast-check fuzzer over every tRPC procedure, read from the app router itself
 * (`appRouter._def.procedures`, inputs from each procedure's zod schemas): single calls,
 * batches of queries or mutations, the wrong method, names that are not procedures, bodies of
 * every media type. Same callers and the same properties as the REST fuzzer (fuzz-oracle.ts),
 * errors in tRPC's envelope with the contract's code and status.
 *
 * 3 800 requests on SQLite (with the REST file's 6 600, over 10 000 a run); half that
 * on MySQL (FUZZ_SCALE overrides; FUZZ_SEED replays a run).
 */
const REQUESTS = 3_800;
const procedures = proceduresOf(appRouter);

let world: FuzzWorld;

beforeAll(async () => {
  world = await FuzzWorld.start();
}, 120_000);
afterAll(async () => {
  printSurvey(world.tally);
  console.log(world.tally.line(`fuzz tRPC (${engine()})`));
  await world?.close();
});

describe('the tRPC fuzzer', () => {
  it('reads a non-trivial procedure list from the router', () => {
    const paths = procedures.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining(['users.list', 'users.show', 'users.bulk', 'users.export', 'users.create', 'audit.list']),
    );
    expect(procedures.length).toBeGreaterThanOrEqual(20);
    expect(procedures.filter((p) => p.input !== null).length).toBeGreaterThanOrEqual(15);
  });

  it('never gets a 5xx, a slow answer, a leak or an error outside the contract, from any procedure', async () => {
    const request = fc.oneof(
      ...[
        [4, 0.02],
        [3, 0.1],
        [2, 0.35],
      ].map(([weight, hostility]) => ({
        weight: weight as number,
        arbitrary: trpcRequest(procedures, { hints: world.hints(), hostility: hostility as number }),
      })),
    );
    const sent = await fuzz(world, request, REQUESTS);
    expect(world.tally.requests).toBeGreaterThanOrEqual(sent);
    // Every procedure was called on its own, by every caller: nothing was silently left out.
    const floor = coverageFloor(sent, procedures.length);
    for (const { path } of procedures) {
      expect(world.tally.byTarget.get(`trpc ${path}`) ?? 0, path).toBeGreaterThan(floor);
    }
    expect(world.tally.byCaller.size).toBe(6);
  }, 600_000);
});
