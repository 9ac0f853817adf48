import { DataTypes, type QueryInterface, QueryTypes } from 'sequelize';
import { columnTypes } from './frozen-column-types.js';
import type { Migration } from './migration.js';

/**
 * Integrations and account security:
 *
 * - `api_tokens` gains `scopes` (a subset of the owner's permissions, null for all of them),
 *   `last_used_ip` and `created_by` (an administrator may mint a token for someone else).
 * - `webhooks`: the endpoints, their signing secret, subscribed events and the dispatcher's
 *   view of their health (consecutive failures, circuit, failing since).
 * - `webhook_events`: the transactional outbox, written in the change's own transaction; its id
 *   is the Standard Webhooks message id.
 * - `webhook_deliveries`: one row per event and subscribed endpoint, claimed by dispatchers
 *   (`status`, `next_attempt_at`, `locked_until`); `webhook_attempts` is its log.
 * - the `tokens.manage` and `webhooks.manage` permissions, granted to the seeded `admin` role.
 */
export const tokensWebhooks: Migration = {
  name: '0010-tokens-webhooks',
  async up({ qi, dialect }) {
    const t = columnTypes(dialect);
    const table = dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {};
    await qi.addColumn('api_tokens', 'scopes', { type: DataTypes.JSON, allowNull: true });
    await qi.addColumn('api_tokens', 'last_used_ip', { type: DataTypes.STRING(45), allowNull: true });
    await qi.addColumn('api_tokens', 'created_by', { type: t.fk, allowNull: true });

    await qi.createTable(
      'webhooks',
      {
        id: { type: t.id, autoIncrement: true, primaryKey: true },
        url: { type: DataTypes.STRING(2000), allowNull: false },
        description: { type: DataTypes.STRING(200), allowNull: false, defaultValue: '' },
        events: { type: DataTypes.JSON, allowNull: false },
        // `whsec_…` (49 characters), or that sealed with SECRETS_KEY (secret-box.ts: 119).
        secret: { type: DataTypes.STRING(255), allowNull: false },
        active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        disabled_reason: { type: DataTypes.STRING(255), allowNull: true },
        failing_since: { type: t.date, allowNull: true },
        consecutive_failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        circuit_open_until: { type: t.date, allowNull: true },
        // How often the circuit opened since the last success: each opening waits twice as long.
        circuit_opens: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        created_by: { type: t.fk, allowNull: true },
        created_at: { type: t.date, allowNull: false },
        updated_at: { type: t.date, allowNull: false },
      },
      table,
    );
    await qi.createTable(
      'webhook_events',
      {
        id: { type: DataTypes.STRING(40), primaryKey: true },
        type: { type: DataTypes.STRING(40), allowNull: false },
        // The body exactly as built and signed (MySQL's JSON type would reorder its keys); a
        // bulk.completed naming 10 000 ids is ~80 KB, past TEXT's 64 KB on MySQL.
        payload: { type: dialect === 'mysql' ? DataTypes.TEXT('long') : DataTypes.TEXT, allowNull: false },
        created_at: { type: t.date, allowNull: false },
      },
      table,
    );
    await qi.addIndex('webhook_events', ['created_at'], { name: 'webhook_events_created' });
    await qi.createTable(
      'webhook_deliveries',
      {
        id: { type: t.id, autoIncrement: true, primaryKey: true },
        webhook_id: { type: t.fk, allowNull: false },
        event_id: { type: DataTypes.STRING(40), allowNull: false },
        event_type: { type: DataTypes.STRING(40), allowNull: false },
        status: { type: DataTypes.STRING(16), allowNull: false },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        next_attempt_at: { type: t.date, allowNull: true },
        locked_until: { type: t.date, allowNull: true },
        last_attempt_at: { type: t.date, allowNull: true },
        last_status_code: { type: DataTypes.INTEGER, allowNull: true },
        last_latency_ms: { type: DataTypes.INTEGER, allowNull: true },
        last_error: { type: DataTypes.STRING(500), allowNull: true },
        created_at: { type: t.date, allowNull: false },
      },
      table,
    );
    // The dispatcher's claim: due rows of one status, oldest first.
    await qi.addIndex('webhook_deliveries', ['status', 'next_attempt_at'], { name: 'webhook_deliveries_due' });
    // The delivery log: one endpoint's deliveries newest first, optionally of one status.
    await qi.addIndex('webhook_deliveries', ['webhook_id', 'id'], { name: 'webhook_deliveries_webhook' });
    await qi.addIndex('webhook_deliveries', ['webhook_id', 'status', 'id'], { name: 'webhook_deliveries_status' });
    await qi.addIndex('webhook_deliveries', ['event_id'], { name: 'webhook_deliveries_event' });
    await qi.createTable(
      'webhook_attempts',
      {
        id: { type: t.id, autoIncrement: true, primaryKey: true },
        delivery_id: { type: t.fk, allowNull: false },
        attempt: { type: DataTypes.INTEGER, allowNull: false },
        at: { type: t.date, allowNull: false },
        status_code: { type: DataTypes.INTEGER, allowNull: true },
        latency_ms: { type: DataTypes.INTEGER, allowNull: false },
        response_excerpt: { type: DataTypes.TEXT, allowNull: true },
        error: { type: DataTypes.STRING(500), allowNull: true },
      },
      table,
    );
    await qi.addIndex('webhook_attempts', ['delivery_id', 'attempt'], { name: 'webhook_attempts_delivery' });
    await grant(qi, 'tokens.manage');
    await grant(qi, 'webhooks.manage');
  },
  async down({ qi }) {
    await qi.dropTable('webhook_attempts');
    await qi.dropTable('webhook_deliveries');
    await qi.dropTable('webhook_events');
    await qi.dropTable('webhooks');
    await qi.removeColumn('api_tokens', 'created_by');
    await qi.removeColumn('api_tokens', 'last_used_ip');
    await qi.removeColumn('api_tokens', 'scopes');
  },
};

/** Adds a permission where it is missing and grants it to the seeded `admin` role. */
async function grant(qi: QueryInterface, name: string) {
  const seq = qi.sequelize;
  const now = new Date();
  const found = await seq.query<{ id: number }>('SELECT id FROM permissions WHERE name = :name', {
    replacements: { name },
    type: QueryTypes.SELECT,
  });
  if (found.length === 0) {
    await qi.bulkInsert('permissions', [{ name, guard_name: 'web', created_at: now, updated_at: now }]);
  }
  await seq.query(
    `INSERT INTO role_permissions (role_id, permission_id)
     SELECT r.id, p.id FROM roles r JOIN permissions p ON p.name = :name
      WHERE r.name = 'admin'
        AND NOT EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role_id = r.id AND rp.permission_id = p.id)`,
    { replacements: { name } },
  );
}
