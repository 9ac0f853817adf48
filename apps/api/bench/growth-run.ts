import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT_DIR } from '../src/config.js';
import { readResults, type RunResults, type ScenarioResult } from './growth-results.js';
import { machineInfo, resizeBufferPool } from './machine.js';
import { sectionMarkers, writeSection } from './report-sections.js';
import { connectionSettings } from './seed.js';

/**
 * Every list scenario of the bench at several sizes of the same demo data, side by side: how the
 * p50 and p99 grow from a million users to ten million (issue 41). Each size is a database of its
 * own (`ua_bench_growth_1m`, …), seeded in bulk unless `--reuse` finds it seeded, and measured by
 * a run of the ordinary bench restricted to the list scenarios (`--only`), one size after
 * another on the same quiet machine.
 */
export const GROWTH_SCENARIOS = [
  'list-default',
  'search-email',
  'search-prefix',
  'search-surname',
  'search-infix',
  'search-none',
  'filter-active',
  'filter-role-common',
  'filter-role-rare',
  'filter-month',
  'filter-year',
  'list-filtered',
  'filter-trashed',
  'search-surname-name-p1',
  'search-surname-name-p1000',
  'search-infix-name-p1000',
  'filtered-name-p1',
  'filtered-name-p1000',
  'role-rare-name-p1000',
  'month-name-p1000',
  'active-name-p1000',
  'list-deep-page',
] as const;

const HELP = `Usage: npm run bench -- --growth [--sizes 1000000,3000000,10000000] [--reuse] [--duration S]
                       [--floor-runs R] [--report FILE] [--innodb-buffer-pool-mb M]

Runs the list scenarios of the bench (${GROWTH_SCENARIOS.length}) at each size, each in a database of its own
(ua_bench_growth_1m, …; seeded in bulk, kept for --reuse), and writes their p50 and p99 side by
side with the ratio of the largest size to the smallest into the report's growth section.

  --sizes a,b,c        users at each size (default 1000000,3000000,10000000)
  --reuse              keep a size's database when it holds its users
  --duration S         seconds of load per scenario (default 10)
  --floor-runs R       SQL floor repetitions per connection (default 10)
  --report FILE        report to write the section into (default docs/PERFORMANCE.md)
  --innodb-buffer-pool-mb M
                       resize MariaDB's buffer pool for the run (restored at the end)
`;

const label = (users: number) =>
  users % 1_000_000 === 0 ? `${users / 1_000_000}m` : users % 1_000 === 0 ? `${users / 1_000}k` : String(users);
const sizeTitle = (users: number) => (users % 1_000_000 === 0 ? `${users / 1_000_000} M` : users.toLocaleString('en'));

/** Targets of issue 41 for a list scenario at the smallest and the largest size. */
function verdict(name: string, first: ScenarioResult | undefined, last: ScenarioResult | undefined): string {
  if (!first?.p50 || !last?.p50 || !first.p99) return 'not measured';
  const deep = name === 'list-deep-page';
  const firstOk = deep ? first.p50 <= 150 : first.p50 <= 50 && first.p99 <= 3 * first.p50;
  const lastOk = name === 'list-default' ? last.p50 <= 2 * first.p50 : deep ? last.p50 <= 300 : last.p50 <= 100;
  return firstOk && lastOk
    ? 'pass'
    : `miss (${[firstOk ? '' : 'smallest', lastOk ? '' : 'largest'].filter(Boolean).join(', ')})`;
}

const ms = (v: number | null | undefined) => (v === null || v === undefined ? '–' : `${v.toFixed(1)}`);

function renderSection(runs: RunResults[], command: string, machine: string, date: Date): string {
  const { start, end } = sectionMarkers('growth');
  const first = runs[0] as RunResults;
  const last = runs[runs.length - 1] as RunResults;
  const head = [
    'scenario',
    ...runs.flatMap((r) => [`${sizeTitle(r.users)} p50`, `${sizeTitle(r.users)} p99`]),
    `p50 ${sizeTitle(last.users)} ÷ ${sizeTitle(first.users)}`,
    'target',
    'verdict',
  ];
  const rows = GROWTH_SCENARIOS.map((name) => {
    const at = runs.map((r) => r.scenarios.find((s) => s.name === name));
    const a = at[0];
    const z = at[at.length - 1];
    const ratio = a?.p50 && z?.p50 ? `${(z.p50 / a.p50).toFixed(2)}×` : '–';
    const target =
      name === 'list-default'
        ? `≤ 50 ms, p99 ≤ 3 × p50 at ${sizeTitle(first.users)}; ≤ 2 × that at ${sizeTitle(last.users)}`
        : name === 'list-deep-page'
          ? `≤ 150 ms / ≤ 300 ms`
          : `≤ 50 ms, p99 ≤ 3 × p50 / ≤ 100 ms`;
    return [
      at.find(Boolean)?.title ?? name,
      ...at.flatMap((s) => [ms(s?.p50), ms(s?.p99)]),
      ratio,
      target,
      verdict(name, a, z),
    ];
  });
  const table = [head, head.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
  const seeding = runs
    .map((r) =>
      r.seeded
        ? `${sizeTitle(r.users)}: ${r.seeded.added.toLocaleString('en')} users seeded in ${(r.seeded.seconds / 60).toFixed(1)} min`
        : `${sizeTitle(r.users)}: reused`,
    )
    .join('; ');
  return [
    start,
    '## Growth: the list scenarios from one million users to ten million',
    '',
    `Written by \`${command}\` on ${date.toISOString().replace(/\.\d+Z$/, 'Z')}; ${machine}. Each size is a database of its own holding the same deterministic demo users (\`src/seed/demo-data.ts\`), seeded in bulk (\`bench/bulk-load.ts\`); ${seeding}. Every scenario is the full request of the 1 M table (the whole page with \`actions\` and role names, 4 connections), p50 and p99 in ms.`,
    '',
    table,
    end,
  ].join('\n');
}

export async function runGrowth(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--growth'),
    options: {
      sizes: { type: 'string', default: '1000000,3000000,10000000' },
      reuse: { type: 'boolean', default: false },
      duration: { type: 'string', default: '10' },
      'floor-runs': { type: 'string', default: '10' },
      report: { type: 'string' },
      'innodb-buffer-pool-mb': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const sizes = (values.sizes ?? '').split(',').map((s) => Number(s.trim().replace(/_/g, '')));
  if (sizes.length < 2 || sizes.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    throw new Error('--sizes: two or more whole numbers of users, smallest first');
  }
  const report = values.report
    ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.report)
    : path.join(ROOT_DIR, 'docs/PERFORMANCE.md');
  const server = 'mysql://root@127.0.0.1:3306';
  const settings = connectionSettings(`${server}/ua_bench_growth_${label(sizes[0] as number)}`);
  const poolMb = values['innodb-buffer-pool-mb'];
  const restore = poolMb ? await resizeBufferPool(settings, Number(poolMb), (s) => console.log(s)) : null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-growth-'));
  try {
    const runs: RunResults[] = [];
    for (const users of sizes) {
      const results = path.join(dir, `${label(users)}.json`);
      const args = [
        '--import',
        'tsx',
        'bench/run.ts',
        '--users',
        String(users),
        '--database-url',
        `${server}/ua_bench_growth_${label(users)}`,
        '--only',
        GROWTH_SCENARIOS.join(','),
        '--duration',
        String(values.duration),
        '--floor-runs',
        String(values['floor-runs']),
        '--skip-naive',
        '--report',
        path.join(dir, `${label(users)}.md`),
        '--results',
        results,
        ...(values.reuse ? ['--reuse'] : []),
      ];
      console.log(`growth: ${users.toLocaleString('en')} users`);
      const run = spawnSync(process.execPath, args, { cwd: path.join(ROOT_DIR, 'apps/api'), stdio: 'inherit' });
      if (run.status !== 0) throw new Error(`the run at ${users.toLocaleString('en')} users failed (${run.status})`);
      runs.push(readResults(results));
    }
    const m = await machineInfo(settings);
    const machine = `${m.cpu}, ${m.cores} cores, MariaDB ${m.mariadb}, buffer pool ${m.bufferPoolMb} MB`;
    const command = `npm run bench -- ${argv.join(' ')}`;
    writeSection(report, 'growth', renderSection(runs, command, machine, new Date()));
    console.log(`growth section written to ${report}`);
    return 0;
  } finally {
    await restore?.();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
