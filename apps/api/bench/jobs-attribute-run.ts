import os from 'node:os';
import { parseArgs } from 'node:util';
import { machineInfo } from './machine.js';
import { benchDatabase } from './seed.js';
import { type ApiServer, startApi } from './server.js';
import { median, sleep } from './stats.js';

const HELP = `Usage: npm run bench -- --jobs --set-attribute [--users N] [--chunk N] [--reuse] [--database-url URL] [--smoke]

  The bulk setAttribute figures of issue 38, on the compiled API (its own job runner) against
  MariaDB: declares an enum attribute of its own, then
  1. a dry run of giving every active user a value (a job that changes nothing): its time;
  2. that change for real: users per second (target ≥ 10 000 over ~800 000 users) and the API's
     peak RSS; meanwhile GET /users, one request at a time (p50 against alone);
  3. clearing the value of every active user (value null): users per second.
  The attribute is removed at the end (no value left), so the database ends as it started. Prints
  the figures (no report section is written).
`;

interface JobState {
  id: number;
  status: string;
  error: string | null;
  progress: { total: number; processed: number; changed: number; skipped: number };
}

const KEY = 'bench_team';
const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

function caller(api: ApiServer, token: string) {
  const send = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${api.baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined
        ? {}
        : {
            body: JSON.stringify(body),
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          }),
    });
    if (res.status >= 300 && res.status !== 404) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    get: <T>(url: string) => send<T>('GET', url),
    post: <T>(url: string, body: unknown) => send<T>('POST', url, body),
    delete: <T>(url: string) => send<T>('DELETE', url),
  };
}

async function browse(api: ApiServer, token: string, ms: number) {
  const latencies: number[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const t0 = performance.now();
    const res = await fetch(`${api.baseUrl}/api/users`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.ok) latencies.push(performance.now() - t0);
  }
  return median(latencies);
}

export async function runSetAttributeBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--jobs' && a !== '--set-attribute'),
    options: {
      users: { type: 'string' },
      chunk: { type: 'string' },
      reuse: { type: 'boolean', default: false },
      smoke: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const smoke = values.smoke;
  const users = Number(values.users ?? (smoke ? 10_000 : 1_000_000));
  const chunk = Number(values.chunk ?? 1_000);
  const started = Date.now();
  const log = (m: string) =>
    process.stdout.write(`[set-attribute ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${m}\n`);
  const db = await benchDatabase({
    url: values['database-url'],
    smoke,
    reuse: values.reuse,
    users,
    tokenName: 'bench-jobs-attribute',
    log,
  });
  const machine = await machineInfo(db.settings);
  const load = os.loadavg()[0] ?? 0;
  process.env.JOBS_CHUNK_SIZE = String(chunk);
  const api = await startApi(db.url, log);
  const call = caller(api, db.token.token);
  const finish = async (id: number, onProgress?: (job: JobState) => Promise<void>) => {
    for (;;) {
      const { item: job } = await call.get<{ item: JobState }>(`/api/jobs/${id}`);
      if (FINISHED.has(job.status)) return job;
      await onProgress?.(job);
      await sleep(100);
    }
  };
  const everyActive = { selection: { query: { filters: { is_active: 'active' } } } };
  const run = async (value: string | null, dryRun: boolean, during?: (job: JobState) => Promise<void>) => {
    const t0 = Date.now();
    const body = { operation: 'setAttribute', attribute: KEY, value, dryRun, ...everyActive };
    const { job } = await call.post<{ job: JobState }>('/api/users/bulk', body);
    const done = await finish(job.id, during);
    const seconds = (Date.now() - t0) / 1000;
    log(
      `  ${done.status} in ${seconds.toFixed(1)} s: ${JSON.stringify(done.progress)}${done.error ? ` ${done.error}` : ''}`,
    );
    return { done, seconds, rate: Math.round(done.progress.processed / seconds) };
  };
  let failed = true;
  try {
    await call.delete(`/api/attributes/${KEY}`);
    await call.post('/api/attributes', { key: KEY, label: 'Bench team', type: 'enum', values: ['Red', 'Blue'] });
    log('GET /users alone, 5 s');
    const alone = await browse(api, db.token.token, smoke ? 500 : 5_000);
    log('dry run: give every active user a team');
    const dry = await run('Red', true);
    log('give every active user a team; GET /users meanwhile');
    api.resetPeak();
    let duringP50 = Number.NaN;
    const set = await run('red', false, async (job) => {
      if (Number.isNaN(duringP50) && job.progress.processed > 0) {
        duringP50 = await browse(api, db.token.token, smoke ? 500 : 5_000);
      }
    });
    const peak = api.peakRssMb();
    log('clear the team of every active user');
    const cleared = await run(null, false);
    failed = [dry, set, cleared].some((r) => r.done.status !== 'succeeded');
    log(
      `${machine.cpu}, ${machine.cores} cores, ${machine.mariadb}, buffer pool ${machine.bufferPoolMb} MB; load ${load.toFixed(2)} at the start; chunks of ${chunk}`,
    );
    log(
      `| dry run over ${dry.done.progress.processed.toLocaleString('en')} active users | ${dry.seconds.toFixed(1)} s |`,
    );
    log(
      `| setAttribute over ${set.done.progress.processed.toLocaleString('en')} active users | ${set.seconds.toFixed(1)} s, ${set.rate.toLocaleString('en')} users/s, peak RSS ${peak.toFixed(0)} MB | ≥ 10 000 users/s | ${set.rate >= 10_000 ? 'pass' : 'miss'} |`,
    );
    log(`| clear it (value null) | ${cleared.seconds.toFixed(1)} s, ${cleared.rate.toLocaleString('en')} users/s |`);
    log(
      `| GET /users p50 during the set | ${duringP50.toFixed(2)} ms, alone ${alone.toFixed(2)} ms: ${(duringP50 / alone).toFixed(2)}× |`,
    );
  } finally {
    await call.delete(`/api/attributes/${KEY}`).catch(() => undefined);
    await api.stop();
  }
  return failed ? 1 : 0;
}
