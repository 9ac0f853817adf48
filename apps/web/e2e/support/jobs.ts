import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Job, JobShow, Webhook } from '@app/contracts';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { jobTitle } from '../../src/features/jobs/job-format';
import { en, originHeader } from './app';
import { server } from './browser';
import { webDir } from './env';

const apiDir = path.resolve(webDir, '../api');

// Runs SQL on the server's SQLite file with the API's own driver (from apps/api, where it is a
// dependency): the triggers keep the stats and the search index as for any other write.
const RUN_SQL = `
const sqlite3 = require('sqlite3');
const [file, sql] = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const db = new sqlite3.Database(file);
db.configure('busyTimeout', 30000);
db.exec('BEGIN IMMEDIATE; ' + sql + '; COMMIT;', (error) => {
  if (error) { console.error(error.message); process.exit(1); }
  db.close();
});
`;

function runSql(sql: string): void {
  execFileSync(process.execPath, ['-e', RUN_SQL], {
    cwd: apiDir,
    input: JSON.stringify([server()?.sqlitePath, sql]),
    stdio: ['pipe', 'ignore', 'inherit'],
  });
}

/** Users written straight into the database for the jobs test: found by their creation year, and by this domain. */
export const BULK_DOMAIN = 'jobs.e2e.test';
export const BULK_YEAR = 2001;

/**
 * Adds `count` active users created in BULK_YEAR (before every seeded one, so no other test's
 * view of "the newest users" changes while they exist) — one statement, a second or two.
 */
export function insertBulkUsers(count: number): void {
  runSql(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
    INSERT INTO users (name, email, password_hash, is_active, lock_version, created_at, updated_at)
    SELECT 'Bulk Person ' || i, 'bulk-' || i || '@${BULK_DOMAIN}', '!', 1, 0,
           '${BULK_YEAR}-06-01 12:00:00.000 +00:00', '${BULK_YEAR}-06-01 12:00:00.000 +00:00'
      FROM n`);
}

/** Takes them out again, so the other browser tests see the seeded database. */
export function deleteBulkUsers(): void {
  runSql(`DELETE FROM users WHERE email LIKE '%@${BULK_DOMAIN}'`);
}

async function call<T>(page: Page, method: 'get' | 'post' | 'put', url: string, data?: unknown): Promise<T> {
  const res = await page.request[method](url, {
    ...(data === undefined ? {} : { data }),
    ...(method === 'get' ? {} : { headers: originHeader() }),
  });
  if (!res.ok()) throw new Error(`${method.toUpperCase()} ${url} → ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

export const apiJob = (page: Page, id: number) => call<JobShow>(page, 'get', `/api/jobs/${id}`);

/** A job's title as its page, the list and the header say it (what it did, on what). */
export const jobTitleOf = async (page: Page, id: number): Promise<string> =>
  jobTitle((await apiJob(page, id)).item, en);

/** Waits until a job is over, and returns it. */
export async function finishedJob(page: Page, id: number, timeout = 60_000): Promise<Job> {
  let job: Job | undefined;
  await expect
    .poll(
      async () => {
        job = (await apiJob(page, id)).item;
        return ['succeeded', 'failed', 'cancelled'].includes(job.status);
      },
      { timeout, interval: 250 },
    )
    .toBe(true);
  return job as Job;
}

/**
 * The job the screenshot pages show: a dry run of deactivating every active user (nothing
 * changes; the signed-in administrator is among them, so one is skipped, with its reason).
 */
export async function ensureJobStory(page: Page): Promise<{ id: number }> {
  const { job } = await call<{ job: Job }>(page, 'post', '/api/users/bulk', {
    operation: 'setActive',
    active: false,
    dryRun: true,
    selection: { query: { filters: { is_active: 'active' } } },
  });
  await finishedJob(page, job.id);
  return { id: job.id };
}

/**
 * Switches every active webhook endpoint off (only active ones are sent events) and returns how
 * to switch them back: thousands of user events from a big job would bury the delivery logs
 * other browser tests read (the story's failed delivery must stay on the first page).
 */
export async function pauseWebhooks(page: Page): Promise<() => Promise<void>> {
  const { items } = await call<{ items: Webhook[] }>(page, 'get', '/api/webhooks');
  const active = items.filter((item) => item.active);
  const put = (item: Webhook, on: boolean) =>
    call(page, 'put', `/api/webhooks/${item.id}`, {
      url: item.url,
      description: item.description,
      events: item.events,
      active: on,
    });
  for (const item of active) await put(item, false);
  return async () => {
    for (const item of active) await put(item, true);
  };
}
