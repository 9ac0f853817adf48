import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { mailCounters } from './mail-metrics.js';
import { onNewMail } from './outbox.js';
import type { MailSender } from './sender.js';

/** What the main thread tells the mail thread. */
export type ToMailThread = { type: 'nudge' } | { type: 'served'; ms: number } | { type: 'stop' };
/** What the mail thread tells the main thread. */
export type FromMailThread =
  | { type: 'started' }
  | { type: 'counts'; sent: number; failed: number; retried: number }
  | { type: 'stopped' };

const THREAD_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 96 };

/** A thread that died is started again after this long (its claims go back when their lease ends). */
const RESTART_DELAY_MS = 1_000;

/**
 * The built mail thread's entry beside this bundle (dist/mail-worker.js), or null when running
 * from the TypeScript sources (tests, `npm run dev`), where the sender runs on the main thread.
 */
export function mailThreadEntry(from: string): URL | null {
  const entry = new URL('./mail-worker.js', from);
  return fs.existsSync(fileURLToPath(entry)) ? entry : null;
}

/**
 * Runs the mail sender on a worker thread of its own (src/mail-worker.ts). On one event loop, a
 * sender at 600 mails/s spent 1.4 ms of it per mail (nodemailer's streams, the SMTP socket
 * writes) and the user list answered 3.3 × slower meanwhile; in a thread, the two share only
 * the cores. Commits in this process nudge it as they would a sender here; its counters are
 * kept here, where /metrics reads them. A thread that dies is logged and started again.
 */
export function startMailSenderThread({ entry, log }: { entry: URL; log: Pick<Logger, 'info' | 'error'> }): MailSender {
  let worker: Worker | null = null;
  let stopping = false;
  let stopped: Promise<void> | null = null;
  let restart: NodeJS.Timeout | null = null;
  let onStopped: (() => void) | null = null;

  const spawn = () => {
    // Its heap stays small (a claim's worth of messages): the caps keep the process's RSS near
    // what it was with the sender on the main thread.
    const thread = new Worker(entry, { resourceLimits: THREAD_HEAP });
    worker = thread;
    thread.on('message', (message: FromMailThread) => {
      if (message.type === 'counts') {
        mailCounters.sent.inc(message.sent);
        mailCounters.failed.inc(message.failed);
        mailCounters.retried.inc(message.retried);
      } else if (message.type === 'started') {
        log.info('mail sender started on a thread of its own');
      } else if (message.type === 'stopped') {
        onStopped?.();
      }
    });
    thread.on('error', (err) => log.error({ err }, 'the mail thread failed'));
    thread.on('exit', (code) => {
      worker = null;
      if (stopping) {
        onStopped?.();
        return;
      }
      log.error({ code }, 'the mail thread ended; starting it again');
      restart = setTimeout(spawn, RESTART_DELAY_MS);
    });
  };

  const unsubscribe = onNewMail(() => worker?.postMessage({ type: 'nudge' } satisfies ToMailThread));
  spawn();
  return {
    nudge: () => worker?.postMessage({ type: 'nudge' } satisfies ToMailThread),
    served: (ms) => worker?.postMessage({ type: 'served', ms } satisfies ToMailThread),
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        stopping = true;
        unsubscribe();
        if (restart) clearTimeout(restart);
        if (!worker) {
          resolve();
          return;
        }
        onStopped = resolve;
        worker.postMessage({ type: 'stop' } satisfies ToMailThread);
      });
      return stopped;
    },
  };
}
