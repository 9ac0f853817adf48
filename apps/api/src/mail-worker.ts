import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import path from 'node:path';
import { loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { createLogger } from './logger.js';
import type { ToMailThread, FromMailThread } from './mail/sender-thread.js';
import { type MailCount, startMailSender } from './mail/sender.js';
import { mailSettings } from './mail/settings.js';

/**
 * The mail thread's entry (built beside main.js): the outbox's sender on an event loop of its
 * own, so rendering and SMTP never queue in front of the requests (sender-thread.ts). It reads
 * the same configuration, opens its own few connections, and counts on the main thread's
 * counters (the /metrics endpoint is there), sent in batches.
 */

/** Below the requests' thread (0), above idle (19). */
const MAIL_THREAD_NICE = 10;

const port = parentPort;
if (!port) throw new Error('mail-worker.js runs as a worker thread of the API (main.js)');
const post = (message: FromMailThread) => port.postMessage(message);

// Mail is background work: on Linux a thread has a nice value of its own (setpriority on the
// calling thread), so the requests' thread and the database are served first when the cores are
// busy, and mail takes what is left. Elsewhere this may set the whole process's: not done there.
if (process.platform === 'linux') {
  try {
    os.setPriority(MAIL_THREAD_NICE);
  } catch {
    // Not allowed here (a container without the capability to lower priority is not one): run as is.
  }
}

const config = loadConfig();
const log = createLogger(config.LOG_LEVEL).child({ component: 'mail' });
// The primary only (the outbox is written, never listed), with a few connections: the sender
// holds one for a claim or a record at a time, and the pruning another. Only what the sender
// needs is imported here (no migrations, seeders or app): every module is loaded again per thread.
const db = await openDatabase({
  url: config.DATABASE_URL,
  sqlitePath: path.join(config.DATA_DIR, 'app.sqlite'),
  poolMax: Math.min(4, config.DATABASE_POOL_MAX),
  statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000,
});

const counts = { sent: 0, failed: 0, retried: 0 };
const flush = () => {
  if (counts.sent + counts.failed + counts.retried === 0) return;
  post({ type: 'counts', ...counts });
  Object.assign(counts, { sent: 0, failed: 0, retried: 0 });
};
const flushing = setInterval(flush, 250);
const count: MailCount = (counter, n) => {
  counts[counter] += n;
};

const sender = startMailSender({ db, settings: mailSettings(config), log, count });
port.on('message', (message: ToMailThread) => {
  if (message.type === 'nudge') {
    sender.nudge();
    return;
  }
  if (message.type === 'served') {
    sender.served(message.ms);
    return;
  }
  void (async () => {
    await sender.stop();
    clearInterval(flushing);
    flush();
    await db.close();
    post({ type: 'stopped' });
    port.close();
  })();
});
post({ type: 'started' });
