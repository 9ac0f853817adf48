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

/** An OpenID Connect identity provider people sign in with (migration 0021). */
export class AuthProviderRow extends Model<InferAttributes<AuthProviderRow>, InferCreationAttributes<AuthProviderRow>> {
  declare id: CreationOptional<number>;
  declare name: string;
  declare issuer: string;
  /** The discovery document as read when saved (JSON text). */
  declare metadata: string;
  declare client_id: string;
  /** Sealed with SECRETS_KEY when one is set (webhooks/secret-box.ts); never answered. */
  declare client_secret: string;
  declare allowed_domains: string[];
  declare create_users: boolean;
  declare default_roles: string[];
  declare created_by: number | null;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

/** MariaDB's JSON is LONGTEXT: its driver hands back the text. */
const jsonList = (name: 'allowed_domains' | 'default_roles') => ({
  type: DataTypes.JSON,
  allowNull: false,
  get(this: AuthProviderRow) {
    const raw = this.getDataValue(name) as unknown;
    return typeof raw === 'string' ? (JSON.parse(raw) as string[]) : (raw as string[]);
  },
});

export function initAuthProviders(sequelize: Sequelize, dialect: Dialect) {
  const t = columnTypes(dialect);
  class AuthProvider extends AuthProviderRow {}
  AuthProvider.init(
    {
      id: { type: t.id, autoIncrement: true, primaryKey: true },
      name: { type: DataTypes.STRING(100), allowNull: false },
      issuer: { type: DataTypes.STRING(500), allowNull: false },
      metadata: { type: DataTypes.TEXT, allowNull: false },
      client_id: { type: DataTypes.STRING(255), allowNull: false },
      client_secret: { type: DataTypes.TEXT, allowNull: false },
      allowed_domains: jsonList('allowed_domains'),
      create_users: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      default_roles: jsonList('default_roles'),
      created_by: { type: t.fk, allowNull: true },
      created_at: { type: t.date, allowNull: false },
      updated_at: { type: t.date, allowNull: false },
    },
    {
      sequelize,
      modelName: 'AuthProvider',
      tableName: 'auth_providers',
      timestamps: true,
      createdAt: 'created_at',
      updatedAt: 'updated_at',
    },
  );
  return AuthProvider;
}
