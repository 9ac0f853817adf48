import type { Sequelize } from 'sequelize';
import type { Dialect } from '../dialect.js';
import { initAudit } from './audit.model.js';
import { initAuthProviders } from './auth-provider.model.js';
import { initJobs } from './job.model.js';
import { initRoles } from './role.model.js';
import { initSessions } from './session.model.js';
import { initUser } from './user.model.js';
import { initUserRoleKeys } from './user-role-key.model.js';
import { initWebhooks } from './webhook.model.js';

export { AuthProviderRow } from './auth-provider.model.js';
export { ApiToken, Session } from './session.model.js';
export { User } from './user.model.js';
export { Webhook, WebhookAttempt, WebhookDelivery } from './webhook.model.js';

/**
 * The models of one database. Always reach models through `db.models`: the exported classes
 * are only the instance types, each database binds its own subclasses.
 */
export function defineModels(sequelize: Sequelize, dialect: Dialect) {
  const User = initUser(sequelize, dialect);
  const { Role, Permission, RolePermission, UserRole, UserPermission } = initRoles(sequelize, dialect);
  const { Session, ApiToken } = initSessions(sequelize, dialect);
  const AuditLog = initAudit(sequelize, dialect);
  const { Webhook, WebhookEvent, WebhookDelivery, WebhookAttempt } = initWebhooks(sequelize, dialect);
  const Job = initJobs(sequelize, dialect);
  const AuthProvider = initAuthProviders(sequelize, dialect);
  const UserRoleKey = initUserRoleKeys(sequelize, dialect);

  // Associations are declared once; counts use subselects in the query engine, not these.
  User.belongsToMany(Role, { through: UserRole, foreignKey: 'user_id', otherKey: 'role_id', as: 'roles' });
  Role.belongsToMany(User, { through: UserRole, foreignKey: 'role_id', otherKey: 'user_id', as: 'users' });
  User.belongsToMany(Permission, {
    through: UserPermission,
    foreignKey: 'user_id',
    otherKey: 'permission_id',
    as: 'directPermissions',
  });
  Role.belongsToMany(Permission, {
    through: RolePermission,
    foreignKey: 'role_id',
    otherKey: 'permission_id',
    as: 'permissions',
  });
  Permission.belongsToMany(Role, {
    through: RolePermission,
    foreignKey: 'permission_id',
    otherKey: 'role_id',
    as: 'roles',
  });
  Session.belongsTo(User, { foreignKey: 'user_id', as: 'user' });
  ApiToken.belongsTo(User, { foreignKey: 'user_id', as: 'user' });

  return {
    User,
    Role,
    Permission,
    RolePermission,
    UserRole,
    UserPermission,
    Session,
    ApiToken,
    AuditLog,
    Webhook,
    WebhookEvent,
    WebhookDelivery,
    WebhookAttempt,
    Job,
    AuthProvider,
    UserRoleKey,
  };
}

export type Models = ReturnType<typeof defineModels>;
