import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { API_DIR } from '../cluster/bed/api-instance.js';
import { login, startCluster } from '../cluster/bed/cluster.js';
import { describeLoad } from '../cluster/bed/load.js';
import { describeSoak, type SoakReport, soak } from '../cluster/bed/soak.js';
import { ROOT_DIR } from '../src/config.js';
import { sectionMarkers, writeSection } from './report-sections.js';

const { start: SOAK_START, end: SOAK_END } = sectionMarkers('soak');

const HELP = `Usage: npm run bench -- --soak [--minutes M] [--users N] [--report FILE]

  Starts the scale-out bed with one API instance (a mariadbd primary and replica of its own,
  the compiled API) and runs a steady mixed load on it for M minutes (default 10): list, show,
  PATCH active, 50-id bulks and an export every 10 s, 4 callers on loopback. Samples the API's
  RSS and event-loop lag p99 every 5 s; fails unless every request succeeded and RSS is flat
  over the last half. Writes the figures into the report's soak section (default
  docs/PERFORMANCE.md).
`;

function minuteRanges(samples: Array<[number, number]>): string {
  const minutes = new Map<number, number[]>();
  for (const [s, mb] of samples) minutes.set(Math.floor(s / 60), [...(minutes.get(Math.floor(s / 60)) ?? []), mb]);
  return [...minutes]
    .map(([m, mbs]) => `${m}–${m + 1} min ${Math.min(...mbs).toFixed(0)}–${Math.max(...mbs).toFixed(0)}`)
    .join(' · ');
}

function section(r: SoakReport, minutes: number, users: number): string {
  const f = (n: number) => n.toFixed(1);
  const k = Object.entries(r.load.byKind)
    .map(([kind, v]) => `| ${kind} | ${v.sent.toLocaleString('en')} | ${v.failed} | ${v.p50} ms | ${v.max} ms |`)
    .join('\n');
  return `${SOAK_START}
## Soak

\`npm run bench -- --soak\`, run on ${new Date().toISOString().slice(0, 16)}Z: ${minutes} minutes of mixed load on one
API instance of the scale-out bed (compiled runtime, MariaDB primary with a replica, ${users.toLocaleString('en')} demo
users), 4 callers on loopback each sending its next request when the last is answered, and an export every 10 s.

| Request | Sent | Failed | p50 | max |
|---|---|---|---|---|
${k}

- **${r.load.sent.toLocaleString('en')} requests, ${r.load.failed.length} failed.**
- **RSS** ${f(r.rssStartMb)} MB at the first sample (5 s in), ${f(r.rssEndMb)} MB at the last. RSS is a sawtooth
  between major collections, so flatness is judged on its floor: over the last half of the run, the lowest
  sample of its second half minus the lowest of its first is **${f(r.secondHalfGrowthMb)} MB** (the check allows
  max(12 MB, 10 %)). Lowest and highest sample of each minute, MB: ${minuteRanges(r.rss)}.
- **V8 heap in use**, lowest and highest sample of each minute, MB: ${minuteRanges(r.rss.map(([s], i) => [s, r.heapUsedMb[i] ?? Number.NaN]))}.
- **Event-loop lag p99** (prom-client, per 5 s window): median ${f(r.lagP99MedianMs)} ms, worst window ${f(r.lagP99MaxMs)} ms.
${SOAK_END}`;
}

export async function runSoak(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--soak'),
    options: {
      minutes: { type: 'string', default: '10' },
      users: { type: 'string', default: '10000' },
      report: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const minutes = Number(values.minutes);
  const users = Number(values.users);
  const report = values.report
    ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.report)
    : path.join(ROOT_DIR, 'docs/PERFORMANCE.md');
  const log = (m: string) => process.stdout.write(`[soak] ${m}\n`);
  log(`building the API, starting the bed (${os.tmpdir()})`);
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: API_DIR, stdio: 'inherit' });
  const c = await startCluster({ name: 'bench-soak', demoUsers: users, instances: 1 });
  try {
    const instance = c.instances[0];
    if (!instance) throw new Error('no instance');
    const cookie = await login(instance.baseUrl);
    log(`${minutes} minutes of load on ${instance.baseUrl}`);
    const r = await soak({
      instance,
      cookie,
      ids: c.demoIds,
      exportRows: c.listedUsers,
      durationMs: minutes * 60_000,
      sampleEveryMs: 5_000,
    });
    log(describeLoad('soak', r.load));
    log(describeSoak(r));
    writeSection(report, 'soak', section(r, minutes, users));
    log(`figures written to ${report}`);
    const flat = r.secondHalfGrowthMb < Math.max(12, r.rssEndMb * 0.1);
    if (r.load.failed.length || !flat) {
      log(`soak FAILED: ${r.load.failed.length} failed requests${flat ? '' : ', RSS grew over the last half'}`);
      return 1;
    }
    return 0;
  } finally {
    await c.close();
  }
}
