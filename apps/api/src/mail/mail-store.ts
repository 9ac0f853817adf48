import { QueryTypes } from 'sequelize';
import type { Database } from '../db/database.js';
import { sqlDate } from '../db/sql-date.js';
import { writeTransaction } from '../db/transaction.js';
import type { MailTemplate } from './mail-catalogue.js';
import type { MailSettings } from './settings.js';

/**
 * The outbox's reads and writes for the senders. A row is `pending` (due at `due_at`), `sending`
 * (claimed by a sender until `due_at`, its lease), `sent` or `failed` (`due_at` NULL). A claim
 * counts the attempt before anything is sent; an outcome is written only while the row is still
 * the claimer's (same status and attempt), so a sender that lost its lease to another cannot
 * undo what the other did.
 */

/** A message a sender holds until its lease ends, with what it needs to send it. */
export interface ClaimedMail {
  id: number;
  messageId: string;
  template: MailTemplate;
  recipient: string;
  /** The variables as stored (sealed when SECRETS_KEY is set): opened just before sending. */
  payload: string | null;
  /** The attempt being made (1 for the first). */
  attempt: number;
}

/** How an attempt ended; `retry` false for a refusal that would be the same next time (SMTP 5xx). */
export type MailOutcome =
  | { claim: ClaimedMail; ok: true; at: Date }
  | { claim: ClaimedMail; ok: false; retry: boolean; error: string; at: Date };

interface DueRow {
  id: number | string;
  message_id: string;
  template: string;
  recipient: string;
  payload: string | null;
  attempts: number | string;
}

/** The longest wait between two attempts of one message. */
export const MAIL_RETRY_CAP_MS = 3_600_000;
/** Each delay is its nominal value ±25 %, so messages that failed together are not retried together. */
const RETRY_JITTER = 0.25;
const ERROR_LIMIT = 500;
/** Ids per IN (). */
const IDS_PER_STATEMENT = 1_000;

/**
 * Milliseconds to wait after failed attempt `attempt` (1-based): the base doubled per attempt
 * (30 s, 1 min, 2 min, … by default), capped at an hour, with jitter.
 */
export function mailRetryDelay(attempt: number, settings: Pick<MailSettings, 'retryBaseMs'>, random = Math.random) {
  const nominal = Math.min(MAIL_RETRY_CAP_MS, settings.retryBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.min(MAIL_RETRY_CAP_MS, Math.round(nominal * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random())));
}

/**
 * MySQL/MariaDB: rows another sender is claiming are skipped, not waited for, so any number of
 * instances claim side by side and each row goes to one. SQLite: the claim runs in the write
 * transaction (BEGIN IMMEDIATE) of the only process that can write.
 */
const lockClause = (db: Database) => (db.dialect === 'mysql' ? ' FOR UPDATE SKIP LOCKED' : '');
const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const clip = (text: string) => (text.length > ERROR_LIMIT ? `${text.slice(0, ERROR_LIMIT - 1)}…` : text);

/** What claiming found: the messages to send now, and how many it gave up on (out of attempts). */
export interface Claimed {
  mails: ClaimedMail[];
  gaveUp: number;
}

/**
 * Claims up to `limit` due messages, oldest due first, in one short transaction: pending ones
 * whose time has come and ones whose sender's lease ran out (it died or stalled mid-send: the
 * message may or may not have reached the server, and goes again with its Message-ID). Each is
 * marked `sending` until its lease ends, its attempt counted. One whose attempts are used up by
 * senders that died is marked failed instead.
 */
export async function claimMail(
  db: Database,
  settings: MailSettings,
  limit: number,
  now = new Date(),
): Promise<Claimed> {
  if (limit <= 0) return { mails: [], gaveUp: 0 };
  const due = sqlDate(db, now);
  // Most polls find nothing: a plain read decides whether a write transaction is worth opening.
  const [waiting] = await db.sequelize.query('SELECT id FROM mail_outbox WHERE due_at <= ? LIMIT 1', {
    replacements: [due],
    type: QueryTypes.SELECT,
  });
  if (!waiting) return { mails: [], gaveUp: 0 };
  return writeTransaction(db, async (tx) => {
    const rows = await db.sequelize.query<DueRow>(
      `SELECT id, message_id, template, recipient, payload, attempts FROM mail_outbox
        WHERE due_at <= ? ORDER BY due_at LIMIT ${Number(limit)}${lockClause(db)}`,
      { replacements: [due], type: QueryTypes.SELECT, transaction: tx },
    );
    const spent = rows.filter((r) => Number(r.attempts) >= settings.maxAttempts).map((r) => Number(r.id));
    const take = rows.filter((r) => Number(r.attempts) < settings.maxAttempts);
    if (spent.length) {
      await db.sequelize.query(
        `UPDATE mail_outbox SET status = 'failed', due_at = NULL, payload = NULL, updated_at = ?,
                last_error = ? WHERE id IN (${placeholders(spent.length)})`,
        {
          replacements: [
            due,
            `Gave up after ${settings.maxAttempts} attempts: the last sender stopped before it recorded how its attempt went.`,
            ...spent,
          ],
          transaction: tx,
        },
      );
    }
    if (take.length) {
      await db.sequelize.query(
        `UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1, due_at = ?, updated_at = ?
          WHERE id IN (${placeholders(take.length)})`,
        {
          replacements: [
            sqlDate(db, new Date(now.getTime() + settings.leaseMs)),
            due,
            ...take.map((r) => Number(r.id)),
          ],
          transaction: tx,
        },
      );
    }
    return {
      gaveUp: spent.length,
      mails: take.map((r) => ({
        id: Number(r.id),
        messageId: r.message_id,
        template: r.template as MailTemplate,
        recipient: r.recipient,
        payload: r.payload,
        attempt: Number(r.attempts) + 1,
      })),
    };
  });
}

/** What recording changed: messages now sent, failed for good, or waiting for another attempt. */
export interface Recorded {
  sent: number;
  failed: number;
  retrying: number;
}

/** The row is still this claim's: nobody took it over after its lease, nor recorded it already. */
const STILL_OURS = "status = 'sending' AND id = ? AND attempts = ?";

/**
 * Writes a batch of finished attempts in one transaction. A sent message and one given up have
 * their variables cleared (the links they hold are no use any more, and are not kept); a failed
 * attempt with attempts left waits for the next one, backing off.
 */
export async function recordMailOutcomes(
  db: Database,
  settings: MailSettings,
  outcomes: MailOutcome[],
  random = Math.random,
): Promise<Recorded> {
  const recorded: Recorded = { sent: 0, failed: 0, retrying: 0 };
  if (outcomes.length === 0) return recorded;
  return writeTransaction(db, async (tx) => {
    Object.assign(recorded, { sent: 0, failed: 0, retrying: 0 });
    const sent = outcomes.filter((o) => o.ok);
    for (let i = 0; i < sent.length; i += IDS_PER_STATEMENT) {
      const part = sent.slice(i, i + IDS_PER_STATEMENT);
      const at = sqlDate(db, part.at(-1)?.at ?? new Date());
      const [, affected] = await db.sequelize.query(
        `UPDATE mail_outbox SET status = 'sent', due_at = NULL, payload = NULL, last_error = NULL, sent_at = ?, updated_at = ?
          WHERE ${part.map(() => `(${STILL_OURS})`).join(' OR ')}`,
        {
          replacements: [at, at, ...part.flatMap((o) => [o.claim.id, o.claim.attempt])],
          type: QueryTypes.UPDATE,
          transaction: tx,
        },
      );
      recorded.sent += Number(affected);
    }
    for (const o of outcomes) {
      if (o.ok) continue;
      const final = !o.retry || o.claim.attempt >= settings.maxAttempts;
      const error = clip(
        final && o.retry ? `Gave up after ${o.claim.attempt} attempts. The last one: ${o.error}` : o.error,
      );
      const next = final
        ? null
        : sqlDate(db, new Date(o.at.getTime() + mailRetryDelay(o.claim.attempt, settings, random)));
      const [, affected] = await db.sequelize.query(
        `UPDATE mail_outbox SET status = ?, due_at = ?, last_error = ?, updated_at = ?${final ? ', payload = NULL' : ''}
          WHERE ${STILL_OURS}`,
        {
          replacements: [final ? 'failed' : 'pending', next, error, sqlDate(db, o.at), o.claim.id, o.claim.attempt],
          type: QueryTypes.UPDATE,
          transaction: tx,
        },
      );
      if (final) recorded.failed += Number(affected);
      else recorded.retrying += Number(affected);
    }
    return recorded;
  });
}

/**
 * Gives claimed messages that were never attempted back to the outbox, due now, their attempt
 * uncounted (a sender stopping with messages still queued). Only rows still the claimer's.
 */
export async function releaseMail(db: Database, claims: ClaimedMail[], now = new Date()): Promise<number> {
  let released = 0;
  for (let i = 0; i < claims.length; i += IDS_PER_STATEMENT) {
    const part = claims.slice(i, i + IDS_PER_STATEMENT);
    const [, affected] = await writeTransaction(db, (tx) =>
      db.sequelize.query(
        `UPDATE mail_outbox SET status = 'pending', attempts = attempts - 1, due_at = ?, updated_at = ?
          WHERE ${part.map(() => `(${STILL_OURS})`).join(' OR ')}`,
        {
          replacements: [sqlDate(db, now), sqlDate(db, now), ...part.flatMap((c) => [c.id, c.attempt])],
          type: QueryTypes.UPDATE,
          transaction: tx,
        },
      ),
    );
    released += Number(affected);
  }
  return released;
}

/** Rows per delete: each batch is one short write transaction. */
const PRUNE_BATCH = 500;

/** Deletes sent and failed messages queued before `before`; returns how many. */
export async function pruneMailOutbox(db: Database, before: Date, batch = PRUNE_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db.sequelize.query<{ id: number | string }>(
      `SELECT id FROM mail_outbox WHERE created_at < ? AND due_at IS NULL LIMIT ${Number(batch)}`,
      { replacements: [sqlDate(db, before)], type: QueryTypes.SELECT },
    );
    if (rows.length === 0) return total;
    const ids = rows.map((r) => Number(r.id));
    await writeTransaction(db, (tx) =>
      db.sequelize.query(`DELETE FROM mail_outbox WHERE due_at IS NULL AND id IN (${placeholders(ids.length)})`, {
        replacements: ids,
        transaction: tx,
      }),
    );
    total += ids.length;
    if (rows.length < batch) return total;
  }
}
