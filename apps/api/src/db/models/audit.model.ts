import {
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  Model,
  type Sequelize,
  DataTypes,
} from 'sequelize';
import type { Dialect } from '../dialect.js';
import { columnTypes } from './columns.js';

export type AuditChanges = Record<string, { before: unknown; after: unknown }>;

export class AuditLog extends Model<InferAttributes<AuditLog>, InferCreationAttributes<AuditLog>> {
  declare id: CreationOptional<number>;
  declare actor_id: number | null;
  declare action: string;
  declare target_type: string | null;
  declare target_ids: number[];
  declare changes: AuditChanges | null;
  declare context: Record<string, unknown> | null;
  declare ip: string | null;
  declare request_id: string | null;
  /** How the change came in: `session`, `token` (`via_name`: the token's name) or `cli`. */
  declare via: string | null;
  declare via_name: string | null;
  declare created_at: CreationOptional<Date>;
}

export function initAudit(sequelize: Sequelize, dialect: Dialect) {
  const t = columnTypes(dialect);
  const AuditLogBound = class extends AuditLog {};
  AuditLogBound.init(
    {
      id: { type: t.id, autoIncrement: true, primaryKey: true },
      actor_id: { type: t.fk, allowNull: true },
      action: { type: DataTypes.STRING(64), allowNull: false },
      target_type: { type: DataTypes.STRING(32), allowNull: true },
      target_ids: { type: DataTypes.JSON, allowNull: false },
      changes: { type: DataTypes.JSON, allowNull: true },
      context: { type: DataTypes.JSON, allowNull: true },
      ip: { type: DataTypes.STRING(45), allowNull: true },
      request_id: { type: DataTypes.STRING(64), allowNull: true },
      via: { type: DataTypes.STRING(16), allowNull: true },
      via_name: { type: DataTypes.STRING(100), allowNull: true },
      created_at: { type: t.date, allowNull: false },
    },
    {
      sequelize,
      modelName: 'AuditLog',
      tableName: 'audit_logs',
      timestamps: true,
      createdAt: 'created_at',
      updatedAt: false,
    },
  );
  return AuditLogBound;
}
