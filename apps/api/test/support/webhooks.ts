import type { WebhookEventType } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import type { AppConfig } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { newWebhookSecret } from '../../src/modules/webhooks/webhooks.secret.js';
import { type WebhooksSettings, webhooksSettings } from '../../src/webhooks/settings.js';

export interface OutboxEvent {
  id: string;
  type: WebhookEventType;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** An endpoint written straight into the database (the API's own create is tested elsewhere). */
export async function subscribe(
  db: Database,
  events: WebhookEventType[],
  url = 'http://127.0.0.1:9/hooks',
  extra: { active?: boolean; includePersonal?: boolean } = {},
): Promise<{ id: number; secret: string }> {
  const secret = newWebhookSecret();
  const row = await db.models.Webhook.create({
    url,
    description: 'test',
    events,
    secret,
    active: extra.active ?? true,
    include_personal: extra.includePersonal ?? false,
    created_by: null,
  });
  return { id: row.id, secret };
}

/** Every event in the outbox, oldest first, with its body parsed. */
export async function outboxEvents(db: Database): Promise<OutboxEvent[]> {
  const rows = await db.sequelize.query<{ id: string; type: WebhookEventType; payload: string }>(
    'SELECT id, type, payload FROM webhook_events ORDER BY id',
    { type: QueryTypes.SELECT },
  );
  return rows.map((r) => ({ id: r.id, type: r.type, payload: JSON.parse(r.payload) }));
}

export async function deliveriesOf(db: Database, webhookId: number) {
  return db.models.WebhookDelivery.findAll({ where: { webhook_id: webhookId }, order: [['id', 'ASC']] });
}

/** Empties the outbox between tests of one file. */
export async function clearOutbox(db: Database) {
  await db.sequelize.query('DELETE FROM webhook_attempts');
  await db.sequelize.query('DELETE FROM webhook_deliveries');
  await db.sequelize.query('DELETE FROM webhook_events');
  await db.sequelize.query('DELETE FROM webhooks');
}

/** Users in bulk, 1 000 per INSERT: a 10 000-user bulk needs them in seconds, not minutes. */
export async function seedUsers(db: Database, n: number, prefix = 'seed'): Promise<number[]> {
  const now = new Date();
  const stamp = `${process.pid}-${Date.now()}`;
  for (let start = 0; start < n; start += 1_000) {
    const count = Math.min(1_000, n - start);
    const rows = Array.from({ length: count }, (_, i) => [
      `${prefix} ${start + i}`,
      `${prefix}-${stamp}-${start + i}@example.com`,
      '!',
      true,
      now,
      now,
    ]);
    await db.sequelize.query(
      `INSERT INTO users (name, email, password_hash, is_active, created_at, updated_at) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
      { replacements: rows.flat() },
    );
  }
  const ids = await db.sequelize.query<{ id: number }>('SELECT id FROM users WHERE email LIKE ? ORDER BY id', {
    replacements: [`${prefix}-${stamp}-%`],
    type: QueryTypes.SELECT,
  });
  return ids.map((r) => Number(r.id));
}

/** The dispatcher's settings for a test: the configuration's, polling fast. */
export function testSettings(config: AppConfig, overrides: Partial<WebhooksSettings> = {}): WebhooksSettings {
  return { ...webhooksSettings(config), pollMs: 50, ...overrides };
}
