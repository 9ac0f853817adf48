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

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<number>;
  declare name: string;
  declare email: string;
  declare password_hash: string;
  declare is_active: CreationOptional<boolean>;
  /** Optimistic-lock counter behind the edit form's opaque `version`. */
  declare lock_version: CreationOptional<number>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
  declare deleted_at: CreationOptional<Date | null>;
  /** The latest invitation (migration 0019): when sent, until when it works, when accepted. */
  declare invitation_sent_at: CreationOptional<Date | null>;
  declare invitation_expires_at: CreationOptional<Date | null>;
  declare invitation_accepted_at: CreationOptional<Date | null>;
  declare last_sign_in_at: CreationOptional<Date | null>;
  /** The account's id in the system it came from (an import, a SCIM client); unique when set. */
  declare external_id: CreationOptional<string | null>;
  /** SCIM's userName when it differs from the e-mail (migration 0027). */
  declare user_name: CreationOptional<string | null>;
  /** SCIM's name parts as an identity provider sent them (migration 0031); NULL: read from the name. */
  declare given_name: CreationOptional<string | null>;
  declare family_name: CreationOptional<string | null>;
  /** SCIM's `primary` of the e-mail as last sent (NULL: not said); true for accounts made elsewhere. */
  declare email_primary: CreationOptional<boolean | null>;
}

export function initUser(sequelize: Sequelize, dialect: Dialect) {
  const t = columnTypes(dialect);
  // A subclass per database: Sequelize binds a model class to one instance, and tests, the CLI
  // and a server may hold several databases in one process.
  const Bound = class extends User {};
  Bound.init(
    {
      id: { type: t.id, autoIncrement: true, primaryKey: true },
      name: { type: t.ciText(100), allowNull: false },
      email: { type: t.ciText(255), allowNull: false },
      password_hash: { type: DataTypes.STRING(255), allowNull: false },
      is_active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      lock_version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      created_at: { type: t.date, allowNull: false },
      updated_at: { type: t.date, allowNull: false },
      deleted_at: { type: t.date, allowNull: true },
      invitation_sent_at: { type: t.date, allowNull: true },
      invitation_expires_at: { type: t.date, allowNull: true },
      invitation_accepted_at: { type: t.date, allowNull: true },
      last_sign_in_at: { type: t.date, allowNull: true },
      external_id: { type: DataTypes.STRING(255), allowNull: true },
      user_name: { type: t.ciText(255), allowNull: true },
      given_name: { type: t.ciText(100), allowNull: true },
      family_name: { type: t.ciText(100), allowNull: true },
      // No default here: the column's own (1) fills it, so the model also writes to tables migrated before it.
      email_primary: { type: DataTypes.BOOLEAN, allowNull: true },
    },
    {
      sequelize,
      modelName: 'User',
      tableName: 'users',
      underscored: true,
      timestamps: true,
      paranoid: true,
      createdAt: 'created_at',
      updatedAt: 'updated_at',
      deletedAt: 'deleted_at',
      // The hash never leaves the repository unless a query asks for it by name.
      defaultScope: { attributes: { exclude: ['password_hash'] } },
      // The named scope drops the default exclusion, for the few places that verify or set passwords.
      scopes: { withPassword: {} },
    },
  );
  return Bound;
}
