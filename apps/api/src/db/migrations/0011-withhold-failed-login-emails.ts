import { QueryTypes, type Sequelize } from 'sequelize';
import { z } from 'zod';
import type { Migration } from './migration.js';

/** Failed sign-ins read per batch. */
const BATCH = 2_000;

/**
 * Failed sign-ins recorded before the login kept only well-formed addresses (issue: what an
 * independent probe found) hold whatever was typed into the e-mail field — sometimes a password —
 * where every `audit.view` holder reads it. Their `context.email` is withheld the way the login
 * now writes it: null, with `email_withheld: true`. The check is this migration's own copy of the
 * login's (`auth/login-identity.ts`), so a later change there cannot change what this one did.
 * Rows are read along the `(action, created_at)` index, BATCH at a time, each batch a short
 * transaction; only rows that need it are written.
 */
const wellFormed = z.email().max(255);

export const withholdFailedLoginEmails: Migration = {
  name: '0011-withhold-failed-login-emails',
  async up({ qi, progress }) {
    const seq = qi.sequelize;
    let after = 0;
    let withheld = 0;
    for (;;) {
      const rows = await seq.query<{ id: number; context: unknown }>(
        `SELECT id, context FROM audit_logs WHERE action = 'auth.loginFailed' AND id > :after ORDER BY id LIMIT ${BATCH}`,
        { replacements: { after }, type: QueryTypes.SELECT },
      );
      if (rows.length === 0) break;
      after = Number(rows[rows.length - 1]?.id);
      const changes = rows.flatMap((row) => {
        const context = readContext(row.context);
        if (!context || typeof context.email !== 'string' || wellFormed.safeParse(context.email).success) return [];
        return [{ id: row.id, context: { ...context, email: null, email_withheld: true } }];
      });
      await writeContexts(seq, changes);
      withheld += changes.length;
    }
    if (withheld) progress?.(`audit: withheld the typed e-mail of ${withheld} failed sign-ins`);
  },
  // What was withheld is gone: nothing to put back.
  async down() {},
};

/** MariaDB returns a JSON column as text, SQLite as text too; either may already be an object. */
function readContext(raw: unknown): Record<string, unknown> | null {
  if (raw && typeof raw === 'object') return raw as Record<string, unknown>;
  if (typeof raw !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

async function writeContexts(seq: Sequelize, changes: { id: number; context: Record<string, unknown> }[]) {
  if (changes.length === 0) return;
  await seq.transaction(async (transaction) => {
    for (const change of changes) {
      await seq.query('UPDATE audit_logs SET context = :context WHERE id = :id', {
        replacements: { id: change.id, context: JSON.stringify(change.context) },
        transaction,
      });
    }
  });
}
