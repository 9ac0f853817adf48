import { randomUUID } from 'node:crypto';
import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { sqlDate } from '../db/sql-date.js';
import { sealSecret } from '../webhooks/secret-box.js';
import type { MailTemplate, MailTemplateVars } from './mail-catalogue.js';
import { mailCounters } from './mail-metrics.js';
import { renderMail } from './render.js';
import type { MailSettings } from './settings.js';

/** One message to send: to whom, with which template of the catalogue and its variables. */
export type OutgoingMail = {
  [T in MailTemplate]: { to: string; template: T; vars: MailTemplateVars[T] };
}[MailTemplate];

/** Whether mail goes out: false when SMTP_URL is not set (nothing was queued; answer the link instead). */
export interface MailQueued {
  sent: boolean;
}

/** Rows per INSERT: a chunk of a bulk invitation in a few statements. */
const ROWS_PER_STATEMENT = 500;

const listeners = new Set<() => void>();

/** Told after a transaction that queued mail commits, so this process's sender starts at once. */
export function onNewMail(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function announceNewMail() {
  for (const listener of listeners) listener();
}

/**
 * Writes `mail` to the outbox in `tx`, the transaction of the change it tells about: it goes out
 * exactly when the change commits, never for one rolled back. The variables (links with raw
 * tokens) are stored sealed with SECRETS_KEY when one is set, and cleared once sent. Each
 * message gets its Message-ID now, the same on every attempt. A template or a link that cannot
 * be rendered throws here, before anything is stored.
 *
 * Without SMTP_URL nothing is written and `{ sent: false }` says so: the caller answers the link
 * for the administrator to pass on.
 */
export async function enqueueMail(
  db: Database,
  tx: Transaction,
  settings: Pick<MailSettings, 'enabled' | 'secretKeys' | 'messageIdDomain'>,
  mail: OutgoingMail | readonly OutgoingMail[],
  now = new Date(),
): Promise<MailQueued> {
  if (!settings.enabled) return { sent: false };
  const list: readonly OutgoingMail[] = Array.isArray(mail) ? mail : [mail as OutgoingMail];
  if (list.length === 0) return { sent: true };
  const at = sqlDate(db, now);
  const rows = list.map((m) => {
    renderMail(m.template, m.vars);
    return [
      `<${randomUUID()}@${settings.messageIdDomain}>`,
      m.template,
      m.to,
      sealSecret(JSON.stringify(m.vars), settings.secretKeys),
      at,
      at,
      at,
    ];
  });
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const part = rows.slice(i, i + ROWS_PER_STATEMENT);
    await db.sequelize.query(
      `INSERT INTO mail_outbox (message_id, template, recipient, payload, status, attempts, due_at, created_at, updated_at)
       VALUES ${part.map(() => "(?, ?, ?, ?, 'pending', 0, ?, ?, ?)").join(', ')}`,
      { replacements: part.flat(), transaction: tx },
    );
  }
  tx.afterCommit(() => {
    mailCounters.queued.inc(list.length);
    announceNewMail();
  });
  return { sent: true };
}
