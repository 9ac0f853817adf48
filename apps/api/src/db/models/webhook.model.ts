import {
  type CreationOptional,
  DataTypes,
  type InferAttributes,
  type InferCreationAttributes,
  Model,
  type Sequelize,
} from 'sequelize';
import type { Dialect } from '../dialect.js';
import { columnTypes } from './columns.js';

/** An endpoint that receives signed events, and the dispatcher's view of its health. */
export class Webhook extends Model<InferAttributes<Webhook>, InferCreationAttributes<Webhook>> {
  declare id: CreationOptional<number>;
  declare url: string;
  declare description: string;
  declare events: string[];
  /** `whsec_` + base64: kept as is, since it must sign (unlike a token, it cannot be a hash). */
  /** The signing secret as stored: sealed when SECRETS_KEY is set (webhooks/secret-box.ts). */
  declare secret: string;
  declare active: CreationOptional<boolean>;
  /** Whether events carry the values of `personal` custom attributes (migration 0024). */
  declare include_personal: CreationOptional<boolean>;
  declare disabled_reason: CreationOptional<string | null>;
  declare failing_since: CreationOptional<Date | null>;
  declare consecutive_failures: CreationOptional<number>;
  declare circuit_open_until: CreationOptional<Date | null>;
  declare circuit_opens: CreationOptional<number>;
  declare created_by: number | null;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

/** The outbox: one row per event, written in the transaction of the change it reports. */
class WebhookEvent extends Model<InferAttributes<WebhookEvent>, InferCreationAttributes<WebhookEvent>> {
  /** The Standard Webhooks message id (`msg_…`), sent as `webhook-id` on every attempt. */
  declare id: string;
  declare type: string;
  /** The body as built and signed: `{type, timestamp, data}` as JSON text. */
  declare payload: string;
  declare created_at: Date;
}

/** One event's delivery to one endpoint: the unit the dispatchers claim. */
export class WebhookDelivery extends Model<InferAttributes<WebhookDelivery>, InferCreationAttributes<WebhookDelivery>> {
  declare id: CreationOptional<number>;
  declare webhook_id: number;
  declare event_id: string;
  declare event_type: string;
  declare status: string;
  declare attempts: CreationOptional<number>;
  declare next_attempt_at: Date | null;
  declare locked_until: CreationOptional<Date | null>;
  declare last_attempt_at: CreationOptional<Date | null>;
  declare last_status_code: CreationOptional<number | null>;
  declare last_latency_ms: CreationOptional<number | null>;
  declare last_error: CreationOptional<string | null>;
  declare created_at: Date;
}

/** The log of a delivery: one row per HTTP attempt. */
export class WebhookAttempt extends Model<InferAttributes<WebhookAttempt>, InferCreationAttributes<WebhookAttempt>> {
  declare id: CreationOptional<number>;
  declare delivery_id: number;
  declare attempt: number;
  declare at: Date;
  declare status_code: number | null;
  declare latency_ms: number;
  declare response_excerpt: string | null;
  declare error: string | null;
}

export function initWebhooks(sequelize: Sequelize, dialect: Dialect) {
  const t = columnTypes(dialect);
  const WebhookBound = class extends Webhook {};
  WebhookBound.init(
    {
      id: { type: t.id, autoIncrement: true, primaryKey: true },
      url: { type: DataTypes.STRING(2000), allowNull: false },
      description: { type: DataTypes.STRING(200), allowNull: false, defaultValue: '' },
      events: {
        type: DataTypes.JSON,
        allowNull: false,
        // MariaDB's JSON is LONGTEXT: its driver hands back the text.
        get(this: Webhook) {
          const raw = this.getDataValue('events') as unknown;
          return typeof raw === 'string' ? (JSON.parse(raw) as string[]) : (raw as string[]);
        },
      },
      secret: { type: DataTypes.STRING(255), allowNull: false },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      include_personal: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      disabled_reason: { type: DataTypes.STRING(255), allowNull: true },
      failing_since: { type: t.date, allowNull: true },
      consecutive_failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      circuit_open_until: { type: t.date, allowNull: true },
      circuit_opens: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      created_by: { type: t.fk, allowNull: true },
      created_at: { type: t.date, allowNull: false },
      updated_at: { type: t.date, allowNull: false },
    },
    {
      sequelize,
      modelName: 'Webhook',
      tableName: 'webhooks',
      timestamps: true,
      createdAt: 'created_at',
      updatedAt: 'updated_at',
    },
  );
  const WebhookEventBound = class extends WebhookEvent {};
  WebhookEventBound.init(
    {
      id: { type: DataTypes.STRING(40), primaryKey: true },
      type: { type: DataTypes.STRING(40), allowNull: false },
      payload: { type: dialect === 'mysql' ? DataTypes.TEXT('long') : DataTypes.TEXT, allowNull: false },
      created_at: { type: t.date, allowNull: false },
    },
    { sequelize, modelName: 'WebhookEvent', tableName: 'webhook_events', timestamps: false },
  );
  const WebhookDeliveryBound = class extends WebhookDelivery {};
  WebhookDeliveryBound.init(
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
    { sequelize, modelName: 'WebhookDelivery', tableName: 'webhook_deliveries', timestamps: false },
  );
  const WebhookAttemptBound = class extends WebhookAttempt {};
  WebhookAttemptBound.init(
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
    { sequelize, modelName: 'WebhookAttempt', tableName: 'webhook_attempts', timestamps: false },
  );
  return {
    Webhook: WebhookBound,
    WebhookEvent: WebhookEventBound,
    WebhookDelivery: WebhookDeliveryBound,
    WebhookAttempt: WebhookAttemptBound,
  };
}
