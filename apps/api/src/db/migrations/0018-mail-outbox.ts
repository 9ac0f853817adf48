import { DataTypes } from 'sequelize';
import type { Dialect } from '../dialect.js';
import type { Migration } from './migration.js';

/** This migration's own column types (frozen: see frozen-column-types.ts for why a copy). */
function columnTypes(dialect: Dialect) {
  const mysql = dialect === 'mysql';
  return {
    id: mysql ? DataTypes.INTEGER.UNSIGNED : DataTypes.INTEGER,
    date: mysql ? DataTypes.DATE(3) : DataTypes.DATE,
  };
}

/**
 * Outgoing mail: `mail_outbox`, the transactional outbox of messages, written in the transaction
 * of the change that sends them and sent by the mail senders.
 *
 * - `message_id`: the Message-ID header, the same on every attempt, so a receiver can tell a
 *   message sent twice (accepted, then the sender died before recording it) from two messages.
 * - `payload`: the template's variables as JSON, sealed with SECRETS_KEY when one is set (they
 *   hold links with raw tokens); cleared (NULL) once the message is sent or given up.
 * - `due_at`: when a sender may take the row — the next attempt of a pending one, the end of
 *   the lease of one being sent (a sender that died leaves it due again) — and NULL once the
 *   row is sent or failed, so the claim walks one index over the rows still to send.
 */
export const mailOutbox: Migration = {
  name: '0018-mail-outbox',
  async up({ qi, dialect }) {
    const t = columnTypes(dialect);
    const table = dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {};
    await qi.createTable(
      'mail_outbox',
      {
        id: { type: t.id, autoIncrement: true, primaryKey: true },
        message_id: { type: DataTypes.STRING(255), allowNull: false },
        template: { type: DataTypes.STRING(40), allowNull: false },
        recipient: { type: DataTypes.STRING(255), allowNull: false },
        payload: { type: DataTypes.TEXT, allowNull: true },
        status: { type: DataTypes.STRING(16), allowNull: false },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        due_at: { type: t.date, allowNull: true },
        last_error: { type: DataTypes.STRING(500), allowNull: true },
        created_at: { type: t.date, allowNull: false },
        sent_at: { type: t.date, allowNull: true },
        updated_at: { type: t.date, allowNull: false },
      },
      table,
    );
    await qi.addIndex('mail_outbox', ['due_at'], { name: 'mail_outbox_due' });
    // Retention: sent and failed messages past their time.
    await qi.addIndex('mail_outbox', ['created_at'], { name: 'mail_outbox_created' });
  },
  async down({ qi }) {
    await qi.dropTable('mail_outbox');
  },
};
