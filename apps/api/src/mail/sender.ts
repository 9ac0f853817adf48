import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { isDatabaseUnreachable } from '../db/unavailable.js';
import { repeatAbout } from '../housekeeping/repeat.js';
import { wakeableSleep } from '../housekeeping/wakeable-sleep.js';
import { openSecret, SecretUnavailable } from '../webhooks/secret-box.js';
import type { LinkMailVars } from './mail-catalogue.js';
import { mailCounters } from './mail-metrics.js';
import {
  type ClaimedMail,
  claimMail,
  type MailOutcome,
  pruneMailOutbox,
  recordMailOutcomes,
  releaseMail,
} from './mail-store.js';
import { onNewMail } from './outbox.js';
import { renderMail } from './render.js';
import { NICE_PAUSE_MAX_MS, niceWait } from '../request-activity.js';
import type { MailSettings } from './settings.js';

export interface MailSender {
  /** Looks for due messages now instead of at the next poll. */
  nudge(): void;
  /**
   * Requests were in flight on this instance for `ms`: the sender waits `niceRatio` times that
   * before handing its next message to a connection (messages being sent go on).
   */
  served(ms: number): void;
  /** Stops claiming, lets the attempts in flight end (each within its deadline) and records them. */
  stop(): Promise<void>;
}

export interface MailSenderDeps {
  db: Database;
  settings: MailSettings;
  log: Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;
  /** For tests: the jitter's source. */
  random?: () => number;
  /** Where outcomes are counted: this process's counters, or (in the mail thread) the main thread's. */
  count?: MailCount;
}

/** Adds `n` to one of the sender's counters. */
export type MailCount = (counter: 'sent' | 'failed' | 'retried', n: number) => void;
const countHere: MailCount = (counter, n) => mailCounters[counter].inc(n);

/** Outcomes are written in batches of up to this many, or after this long, whichever comes first. */
const RECORD_BATCH = 100;
const RECORD_DELAY_MS = 20;
const ERROR_BACKOFF_MS = 1_000;
const ERROR_BACKOFF_MAX_MS = 30_000;

/** An SMTP server's error as a sentence for the outbox and the log: never the message's content. */
export function describeSmtpError(err: unknown, settings: Pick<MailSettings, 'timeoutMs'>): string {
  if (err instanceof SecretUnavailable) {
    return 'The message is sealed with a key this instance does not have (SECRETS_KEY, SECRETS_KEY_PREVIOUS).';
  }
  const e = err as { code?: string; responseCode?: number; response?: string; message?: string; name?: string };
  if (e.name === 'AbortError' || e.code === 'EABORT') {
    return `No answer within ${settings.timeoutMs / 1000} s (MAIL_TIMEOUT_SECONDS).`;
  }
  if (e.responseCode) return `The SMTP server answered: ${e.response ?? e.message ?? e.responseCode}`;
  const text = e.message || String(err);
  return e.code && !text.includes(e.code) ? `${e.code}: ${text}` : text;
}

/** A refusal that would be the same next time: the server said no for good (5xx) to this message. */
const permanent = (err: unknown) => {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * Starts a mail sender: it claims due messages from the outbox (up to `prefetch` at a time),
 * sends them over `concurrency` kept-open SMTP connections, and records every outcome. It polls while idle,
 * goes again at once after a full claim, and is woken by this process's commits. Any number may
 * run against one database: a message is claimed by one of them (mail-store.ts).
 *
 * Delivery is at least once: a sender that dies after the server accepted a message and before
 * it recorded so leaves the message to be sent again once its lease ends. Every attempt carries
 * the message's own Message-ID, so a receiver can tell the copy for what it is.
 */
export function startMailSender({
  db,
  settings,
  log,
  random = Math.random,
  count = countHere,
}: MailSenderDeps): MailSender {
  if (!settings.smtpUrl) throw new Error('the mail sender needs SMTP_URL');
  const transport: Transporter = nodemailer.createTransport({
    url: settings.smtpUrl,
    pool: true,
    maxConnections: settings.concurrency,
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: settings.timeoutMs,
  });
  let running = true;
  /** Claimed and not yet recorded (queued, sending, or sent and waiting to be written down). */
  let inFlight = 0;
  let sending = 0;
  /** Claimed, waiting for a free connection, oldest due first. */
  const queue: ClaimedMail[] = [];
  const pending: MailOutcome[] = [];
  const attempts = new Set<Promise<void>>();
  let recording: Promise<void> | null = null;
  let recordTimer: NodeJS.Timeout | null = null;
  const { sleep, wakeUp } = wakeableSleep();
  // Claim again once a round's worth of room is free; and never hold more than a claim's worth
  // of outcomes unrecorded (a slow database slows the claims instead of growing the backlog).
  const claimRoom = () => settings.prefetch - queue.length - sending;
  const roomEnough = () =>
    claimRoom() >= Math.min(settings.concurrency, settings.prefetch) && inFlight < settings.prefetch + RECORD_BATCH;

  // An unreachable database is an outage to ride out: one warning when it starts, one line when it ends.
  let outage = false;
  const databaseTrouble = (err: unknown, what: string) => {
    if (!isDatabaseUnreachable(err)) {
      log.error({ err }, what);
    } else if (!outage) {
      outage = true;
      log.warn({ error: err instanceof Error ? err.message : String(err) }, `${what}: the database is unreachable`);
    }
  };
  const databaseBack = () => {
    if (!outage) return;
    outage = false;
    log.info('mail sender: the database is reachable again');
  };

  const record = async () => {
    while (pending.length) {
      const batch = pending.splice(0, RECORD_BATCH);
      try {
        const done = await recordMailOutcomes(db, settings, batch, random);
        databaseBack();
        count('failed', done.failed);
        count('retried', done.retrying);
      } catch (err) {
        // Unrecorded: each stays `sending` until its lease ends, then goes again (at least once).
        databaseTrouble(err, 'mail outcomes could not be recorded');
      }
      inFlight -= batch.length;
      wakeUp();
    }
  };
  const scheduleRecord = () => {
    if (recording) return;
    const atOnce = pending.length >= RECORD_BATCH || sending === 0;
    if (recordTimer && atOnce) {
      clearTimeout(recordTimer);
      recordTimer = null;
    }
    if (recordTimer) return;
    recordTimer = setTimeout(
      () => {
        recordTimer = null;
        recording = record().finally(() => {
          recording = null;
          if (pending.length) scheduleRecord();
        });
      },
      atOnce ? 0 : RECORD_DELAY_MS,
    );
  };

  /** One attempt: the variables opened, the bodies rendered, the message handed to the server. */
  const attempt = async (claim: ClaimedMail): Promise<MailOutcome> => {
    try {
      if (claim.payload === null) {
        return { claim, ok: false, retry: false, error: 'The message has no content left to send.', at: new Date() };
      }
      const vars = JSON.parse(openSecret(claim.payload, settings.secretKeys)) as LinkMailVars;
      const body = renderMail(claim.template, vars);
      await transport.sendMail({
        from: settings.from,
        to: { name: vars.name, address: claim.recipient },
        subject: body.subject,
        text: body.text,
        html: body.html,
        messageId: claim.messageId,
        headers: { 'Auto-Submitted': 'auto-generated' },
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      count('sent', 1);
      return { claim, ok: true, at: new Date() };
    } catch (err) {
      return { claim, ok: false, retry: !permanent(err), error: describeSmtpError(err, settings), at: new Date() };
    }
  };

  const send = (claim: ClaimedMail) => {
    sending += 1;
    const done = attempt(claim).then((outcome) => {
      sending -= 1;
      const fields = { mailId: claim.id, template: claim.template, attempt: claim.attempt };
      if (outcome.ok) log.debug(fields, 'mail sent');
      else log.info({ ...fields, error: outcome.error }, 'mail attempt failed');
      pending.push(outcome);
      scheduleRecord();
      pump();
      if (roomEnough()) wakeUp();
    });
    attempts.add(done);
    void done.finally(() => attempts.delete(done));
  };
  // Giving way to the instance's requests: no message starts before this (performance.now()).
  let pausedUntil = 0;
  let resume: NodeJS.Timeout | null = null;
  const served = (ms: number) => {
    const wait = niceWait(settings.niceRatio, ms);
    if (wait === 0) return;
    const now = performance.now();
    pausedUntil = Math.min(Math.max(pausedUntil, now) + wait, now + NICE_PAUSE_MAX_MS);
  };
  /** Hands queued messages to free connections, unless the sender is giving way. */
  const pump = () => {
    const wait = pausedUntil - performance.now();
    if (wait > 0) {
      resume ??= setTimeout(() => {
        resume = null;
        pump();
      }, wait);
      return;
    }
    while (running && sending < settings.concurrency && queue.length) send(queue.shift() as ClaimedMail);
  };

  const loop = async () => {
    let backoff = ERROR_BACKOFF_MS;
    while (running) {
      if (!roomEnough()) {
        await sleep(settings.pollMs);
        continue;
      }
      const free = claimRoom();
      let claimed: ClaimedMail[];
      try {
        const found = await claimMail(db, settings, free);
        claimed = found.mails;
        if (found.gaveUp) {
          count('failed', found.gaveUp);
          log.warn({ messages: found.gaveUp }, 'mail given up: its senders stopped mid-send too often');
        }
        backoff = ERROR_BACKOFF_MS;
        databaseBack();
      } catch (err) {
        databaseTrouble(err, 'mail could not be claimed; trying again');
        await sleep(backoff);
        backoff = Math.min(ERROR_BACKOFF_MAX_MS, backoff * 2);
        continue;
      }
      inFlight += claimed.length;
      queue.push(...claimed);
      pump();
      if (claimed.length < free && running) await sleep(settings.pollMs);
    }
  };

  /** At stop: claimed messages never attempted go back to the outbox at once, for any sender. */
  const giveBack = async () => {
    const unsent = queue.splice(0);
    if (unsent.length === 0) return;
    try {
      await releaseMail(db, unsent);
    } catch (err) {
      // Their lease ends on its own; another sender takes them up then.
      databaseTrouble(err, 'claimed mail could not be given back');
    }
    inFlight -= unsent.length;
  };

  const pruning = repeatAbout(
    async () => {
      try {
        const pruned = await pruneMailOutbox(db, new Date(Date.now() - settings.retentionMs));
        databaseBack();
        if (pruned) log.info({ pruned }, 'old mail pruned from the outbox');
      } catch (err) {
        databaseTrouble(err, 'the mail outbox could not be pruned; trying again at the next pass');
      }
    },
    settings.pruneEveryMs,
    random,
  );

  const unsubscribe = onNewMail(wakeUp);
  const looping = loop();
  log.info({ concurrency: settings.concurrency }, 'mail sender started');
  let stopped: Promise<void> | null = null;
  return {
    nudge: wakeUp,
    served,
    stop() {
      stopped ??= (async () => {
        running = false;
        unsubscribe();
        if (resume) clearTimeout(resume);
        wakeUp();
        await pruning.stop();
        await looping;
        await giveBack();
        await Promise.allSettled([...attempts]);
        if (recordTimer) {
          clearTimeout(recordTimer);
          recordTimer = null;
        }
        await recording;
        await record();
        transport.close();
        log.info('mail sender stopped');
      })();
      return stopped;
    },
  };
}
