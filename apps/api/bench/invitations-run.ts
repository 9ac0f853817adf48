import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT_DIR } from '../src/config.js';
import { machineInfo } from './machine.js';
import { sectionMarkers, writeSection } from './report-sections.js';
import { benchDatabase, connect } from './seed.js';
import { type ApiServer, startApi } from './server.js';
import { median, percentile, sleep } from './stats.js';
import { startSmtpSink } from './smtp-sink.js';
import { cpuWindow } from './webhook-cpu.js';
import { functionProfile, readProfileFile } from './profile-functions.js';

const HELP = `Usage: npm run bench -- --invitations [--users N] [--chunk N] [--reuse] [--cpu-profile DIR] [--database-url URL] [--report FILE] [--smoke]

  The bulk invitation figures of issue 37, on the compiled API (its own job runner and mail
  sender) against MariaDB, the mail going to a real SMTP server process on loopback:
  1. GET /users (the default page), one request at a time for 5 s, with nothing else running;
  2. POST /users/bulk {operation: "invite"} over every user but the bench's administrator (a
     job): mails per second from the submission until the last mail arrived (target ≥ 500), and
     the API's peak RSS meanwhile (target ≤ 250 MB); every invited user gets exactly one mail;
  3. GET /users as in 1 while the job runs (target: p50 ≤ 1.5 × alone).
  Its own database (default ua_bench_invitations, 100 000 users; --smoke: ua_bench_invitations_smoke,
  3 000 users, no report, fails unless the job succeeded and every mail arrived once). Writes the
  invitations section of the report (default docs/PERFORMANCE.md).
`;

interface JobState {
  id: number;
  status: string;
  progress: { total: number; processed: number; changed: number; skipped: number };
  counts: Record<string, number>;
}

interface Figures {
  users: number;
  chunk: number;
  machine: string;
  /** The machine's 1-minute load average when the run began: a busy machine's figures are not its own. */
  load: number;
  aloneP50: number;
  duringP50: number;
  duringP99: number;
  /** GET /users while only the mail goes out (the job finished, mails still arriving): the sender's own share. */
  mailingP50: number;
  job: JobState;
  jobS: number;
  mails: number;
  mailS: number;
  duplicates: number;
  peakRssMb: number;
  /** The API process's CPU (user + system) per mail, from the submission to the last mail: load-independent. */
  apiCpuMsPerMail: number;
}

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

function caller(api: ApiServer, token: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return async <T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${api.baseUrl}${url}`, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

/** The default page, one request at a time, for `ms`. */
async function browse(api: ApiServer, token: string, ms: number) {
  const latencies: number[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const t0 = performance.now();
    const res = await fetch(`${api.baseUrl}/api/users`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.ok) latencies.push(performance.now() - t0);
  }
  return { p50: median(latencies), p99: percentile(latencies, 99) };
}

export async function runInvitationsBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--invitations'),
    options: {
      users: { type: 'string' },
      chunk: { type: 'string' },
      reuse: { type: 'boolean', default: false },
      smoke: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
      report: { type: 'string' },
      'cpu-profile': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const smoke = values.smoke;
  const users = Number(values.users ?? (smoke ? 3_000 : 100_000));
  const chunk = Number(values.chunk ?? 1_000);
  const report = values.report
    ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.report)
    : smoke
      ? null
      : path.join(ROOT_DIR, 'docs/PERFORMANCE.md');
  const started = Date.now();
  const log = (m: string) =>
    process.stdout.write(`[invitations ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${m}\n`);
  // A database of its own: the invitation columns and links it leaves would skew the others' runs.
  const url =
    values['database-url'] ??
    `mysql://root@127.0.0.1:3306/${smoke ? 'ua_bench_invitations_smoke' : 'ua_bench_invitations'}`;
  const {
    url: databaseUrl,
    settings,
    token: admin,
  } = await benchDatabase({
    url,
    smoke,
    reuse: values.reuse,
    users,
    tokenName: 'bench-invitations',
    log,
  });
  const machine = await machineInfo(settings);
  const load = os.loadavg()[0] ?? 0;
  const conn = await connect(settings);
  await conn.query('DELETE FROM rate_limits');
  await conn.query('DELETE FROM mail_outbox');
  const sink = await startSmtpSink();
  process.env.JOBS_CHUNK_SIZE = String(chunk);
  process.env.SMTP_URL = sink.url;
  process.env.MAIL_FROM = 'User administration <no-reply@example.com>';
  process.env.PUBLIC_URL = 'https://admin.example.com';
  // --cpu-profile DIR: V8 samples the API until it stops (where its CPU per mail goes).
  const profileDir = values['cpu-profile'] ? path.resolve(values['cpu-profile']) : undefined;
  const api = await startApi(databaseUrl, log, profileDir ? { cpuProfileDir: profileDir } : {});
  const call = caller(api, admin.token);
  let failed = true;
  try {
    log('GET /users alone');
    const alone = await browse(api, admin.token, smoke ? 1_000 : 5_000);

    log('invite every user but the administrator (a job); GET /users meanwhile');
    api.resetPeak();
    const cpu = cpuWindow(api.pid);
    const t0 = Date.now();
    const { job: submitted } = await call<{ job: JobState }>('POST', '/api/users/bulk', {
      operation: 'invite',
      selection: { query: {}, except: [admin.id] },
    });
    let during: Awaited<ReturnType<typeof browse>> | null = null;
    let job: JobState;
    for (;;) {
      job = (await call<{ item: JobState }>('GET', `/api/jobs/${submitted.id}`)).item;
      if (FINISHED.has(job.status)) break;
      if (!during && job.progress.processed > 0) during = await browse(api, admin.token, smoke ? 500 : 5_000);
      else await sleep(100);
    }
    const jobS = (Date.now() - t0) / 1000;
    log(`  job ${job.status} in ${jobS.toFixed(1)} s: ${JSON.stringify(job.progress)} ${JSON.stringify(job.counts)}`);

    const expected = job.progress.changed;
    const deadline = Date.now() + Math.max(120_000, expected * 20);
    let received = sink.byRecipient();
    // While the mail alone goes out: the same browse, if enough of it is left to sample.
    const mailing = expected - received.size > 1_500 ? await browse(api, admin.token, smoke ? 500 : 3_000) : null;
    received = sink.byRecipient();
    while (received.size < expected && Date.now() < deadline) {
      await sleep(100);
      received = sink.byRecipient();
    }
    const mailS = (Date.now() - t0) / 1000;
    const peakRssMb = api.peakRssMb();
    const shares = cpu.stop();
    const apiCpuMsPerMail = ((shares.api ?? Number.NaN) * shares.wallSeconds * 1000) / Math.max(1, received.size);
    const duplicates = [...received.values()].filter((n) => n > 1).length;
    log(`  ${received.size.toLocaleString('en')} of ${expected.toLocaleString('en')} mails in ${mailS.toFixed(1)} s`);

    const figures: Figures = {
      users,
      chunk,
      machine: `${machine.cpu}, ${machine.cores} cores, ${machine.mariadb}`,
      load,
      aloneP50: alone.p50,
      duringP50: (during as Awaited<ReturnType<typeof browse>> | null)?.p50 ?? Number.NaN,
      duringP99: (during as Awaited<ReturnType<typeof browse>> | null)?.p99 ?? Number.NaN,
      mailingP50: mailing?.p50 ?? Number.NaN,
      job,
      jobS,
      mails: received.size,
      mailS,
      duplicates,
      peakRssMb,
      apiCpuMsPerMail,
    };
    log(`load average at the start: ${load.toFixed(2)}`);
    for (const line of table(figures)) log(line);
    failed = job.status !== 'succeeded' || received.size !== expected || duplicates > 0 || expected === 0;
    if (report && !failed) {
      writeSection(report, 'invitations', section(figures));
      log(`report written to ${report}`);
    }
  } finally {
    await api.stop();
    await sink.close();
    await conn.end();
  }
  if (profileDir) {
    process.stdout.write(functionProfile(readProfileFile(profileDir), 25));
  }
  if (failed) {
    log('the job did not succeed, or a mail was missing or sent twice');
    return 1;
  }
  return 0;
}

const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 2 : 1)} ms` : '—');
const verdict = (ok: boolean) => (ok ? 'pass' : 'miss');

function table(f: Figures): string[] {
  const rate = Math.round(f.mails / f.mailS);
  const ratio = f.duringP50 / f.aloneP50;
  return [
    '| Scenario | Measured | Target | Result |',
    '|---|---|---|---|',
    `| invite every user of the selection (${f.job.progress.changed.toLocaleString('en')} invited, job ${f.jobS.toFixed(1)} s) | ${f.mails.toLocaleString('en')} mails in ${f.mailS.toFixed(1)} s: **${rate.toLocaleString('en')} mails/s**, API peak RSS ${f.peakRssMb.toFixed(0)} MB, API CPU ${f.apiCpuMsPerMail.toFixed(2)} ms per mail, ${f.duplicates} sent twice | ≥ 500 mails/s, ≤ 250 MB | ${verdict(rate >= 500 && f.peakRssMb <= 250 && f.duplicates === 0)} |`,
    `| GET /users p50 while the invitation job runs | ${ms(f.duringP50)} (p99 ${ms(f.duringP99)}), alone ${ms(f.aloneP50)}: ${ratio.toFixed(2)}× | ≤ 1.5 × alone | ${verdict(ratio <= 1.5)} |`,
    `| GET /users p50 after the job, while its mail goes out | ${ms(f.mailingP50)}: ${(f.mailingP50 / f.aloneP50).toFixed(2)}× alone | — (the sender's own share) | — |`,
  ];
}

function section(f: Figures): string {
  const { start, end } = sectionMarkers('invitations');
  return [
    start,
    '## Bulk invitations',
    '',
    `Written by \`npm run bench -- --invitations\` on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}: ${f.users.toLocaleString('en')} users, chunks of ${f.chunk.toLocaleString('en')}, one API process (its own job runner and mail sender, MAIL_CONCURRENCY as configured), a real SMTP server process on loopback; ${f.machine}; load average ${f.load.toFixed(2)} at the start.`,
    '',
    ...table(f),
    '',
    'Mails per second run from the submission until the last mail arrived at the SMTP server. GET /users is the default page, one request at a time.',
    end,
  ].join('\n');
}
