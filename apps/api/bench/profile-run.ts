import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { functionProfile, readProfileFile } from './profile-functions.js';
import { runLoad } from './http-load.js';
import { SCENARIOS, type BenchContext, type HttpScenario } from './scenarios.js';
import { adminToken, connect, connectionSettings, prepareSchema } from './seed.js';
import { startApi } from './server.js';

/**
 * `npm run bench -- --profile NAME`: one HTTP scenario under load against an already-seeded
 * database, with the API sampled by V8 (`node --cpu-prof dist/main.js`), and where its main
 * thread's time went: self time by function and by owner, and total time by owner (a frame's
 * callees included). Nothing is written to the report; the .cpuprofile is kept for DevTools.
 */
export async function runProfile(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--profile'),
    options: {
      scenario: { type: 'string', default: 'list-default' },
      'database-url': { type: 'string', default: 'mysql://root@127.0.0.1:3306/ua_bench' },
      duration: { type: 'string', default: '20' },
      connections: { type: 'string', default: '4' },
      top: { type: 'string', default: '30' },
    },
    allowPositionals: true,
  });
  const name = values.scenario as string;
  const scenario = SCENARIOS.find((s): s is HttpScenario => s.kind === 'http' && s.name === name);
  if (!scenario) throw new Error(`--scenario: no HTTP scenario named ${name}`);
  const url = values['database-url'] as string;
  const settings = connectionSettings(url);
  const db = await prepareSchema(url);
  const token = await adminToken(db, 'bench-profile').finally(() => db.close());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-bench-prof-'));
  const log = (s: string) => process.stdout.write(`${s}\n`);
  const server = await startApi(url, log, { cpuProfileDir: dir });
  const conn = await connect(settings);
  try {
    const [roles] = (await conn.query('SELECT id, name FROM roles')) as unknown as [
      Array<{ id: number; name: string }>,
    ];
    const ctx: BenchContext = {
      baseUrl: server.baseUrl,
      token: token.token,
      users: 1_000_000,
      roleIds: new Map(roles.map((r) => [r.name, Number(r.id)])),
      demoIdRange: { min: 0, max: 0 },
      writePool: [],
      audit: null,
      scim: null,
    };
    const opts = { seconds: 3, connections: Number(values.connections) };
    await runLoad(ctx, scenario, opts);
    const load = await runLoad(ctx, scenario, { ...opts, seconds: Number(values.duration) });
    log(
      `${name}: p50 ${load.p50.toFixed(2)} ms, p99 ${load.p99.toFixed(2)} ms, ${load.reqPerSec.toFixed(1)} req/s, ` +
        `${JSON.stringify(load.statuses)}; load average ${os.loadavg()[0]?.toFixed(2)}`,
    );
  } finally {
    await server.stop();
    await conn.query('DELETE FROM api_tokens WHERE id = ?', [token.id]).catch(() => undefined);
    await conn.end();
  }
  const file = readProfileFile(dir);
  log(functionProfile(file, Number(values.top)));
  log(`profile kept: ${file}`);
  return 0;
}
