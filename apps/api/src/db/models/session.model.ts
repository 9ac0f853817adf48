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

/** A browser session. The primary key is the SHA-256 of the cookie value, never the value itself. */
export class Session extends Model<InferAttributes<Session>, InferCreationAttributes<Session>> {
  declare id: string;
  declare user_id: number;
  declare ip: string | null;
  declare user_agent: string | null;
  declare created_at: Date;
  declare last_seen_at: Date;
  declare expires_at: Date;
  /** How the sign-in met a second factor (migration 0020); null when it did not. */
  declare second_factor: CreationOptional<string | null>;
}

/** A personal API token for external callers; only its SHA-256 is stored. */
export class ApiToken extends Model<InferAttributes<ApiToken>, InferCreationAttributes<ApiToken>> {
  declare id: CreationOptional<number>;
  declare user_id: number;
  declare name: string;
  declare token_hash: string;
  /**
   * The permission names the token is narrowed to, or null for all of its owner's. Either way
   * it acts with at most what its owner holds at each request (`authenticate`).
   */
  declare scopes: CreationOptional<string[] | null>;
  declare expires_at: Date | null;
  declare last_used_at: Date | null;
  declare last_used_ip: CreationOptional<string | null>;
  /** Who made it: the owner or an administrator; null for the command line. */
  declare created_by: CreationOptional<number | null>;
  declare created_at: CreationOptional<Date>;
}

export function initSessions(sequelize: Sequelize, dialect: Dialect) {
  const t = columnTypes(dialect);
  const SessionBound = class extends Session {};
  SessionBound.init(
    {
      id: { type: DataTypes.CHAR(64), primaryKey: true },
      user_id: { type: t.fk, allowNull: false },
      ip: { type: DataTypes.STRING(45), allowNull: true },
      user_agent: { type: DataTypes.STRING(255), allowNull: true },
      created_at: { type: t.date, allowNull: false },
      last_seen_at: { type: t.date, allowNull: false },
      expires_at: { type: t.date, allowNull: false },
      second_factor: { type: DataTypes.STRING(16), allowNull: true },
    },
    { sequelize, modelName: 'Session', tableName: 'sessions', timestamps: false },
  );
  const ApiTokenBound = class extends ApiToken {};
  ApiTokenBound.init(
    {
      id: { type: t.id, autoIncrement: true, primaryKey: true },
      user_id: { type: t.fk, allowNull: false },
      name: { type: DataTypes.STRING(100), allowNull: false },
      token_hash: { type: DataTypes.CHAR(64), allowNull: false },
      scopes: { type: DataTypes.JSON, allowNull: true },
      expires_at: { type: t.date, allowNull: true },
      last_used_at: { type: t.date, allowNull: true },
      last_used_ip: { type: DataTypes.STRING(45), allowNull: true },
      created_by: { type: t.fk, allowNull: true },
      created_at: { type: t.date, allowNull: false },
    },
    {
      sequelize,
      modelName: 'ApiToken',
      tableName: 'api_tokens',
      timestamps: true,
      createdAt: 'created_at',
      updatedAt: false,
    },
  );
  return { Session: SessionBound, ApiToken: ApiTokenBound };
}
