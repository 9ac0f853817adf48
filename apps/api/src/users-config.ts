import { z } from 'zod';
import { envBoolean } from './config-helpers.js';

/**
 * The users module's business-rule configuration (SPEC §7). Every key has a default here and
 * can be overridden by the environment variable named beside it.
 */
const USERS_CONFIG_ENV = {
  blockSelfDeactivate: 'USERS_ACTIVATION_BLOCK_SELF_DEACTIVATE',
  blockDeactivateIfLastAdmin: 'USERS_ACTIVATION_BLOCK_DEACTIVATE_IF_LAST_ADMIN',
  adminRoleName: 'USERS_ACTIVATION_ADMIN_ROLE_NAME',
  requireInactive: 'USERS_DELETION_REQUIRE_INACTIVE',
  blockDeleteIfLastAdmin: 'USERS_DELETION_BLOCK_IF_LAST_ADMIN',
  perPageDefault: 'USERS_LIST_PER_PAGE_DEFAULT',
  perPageMax: 'USERS_LIST_PER_PAGE_MAX',
} as const;

const UsersEnvSchema = z
  .object({
    [USERS_CONFIG_ENV.blockSelfDeactivate]: envBoolean(true),
    [USERS_CONFIG_ENV.blockDeactivateIfLastAdmin]: envBoolean(true),
    [USERS_CONFIG_ENV.adminRoleName]: z.string().trim().min(1).max(100).default('admin'),
    [USERS_CONFIG_ENV.requireInactive]: envBoolean(true),
    [USERS_CONFIG_ENV.blockDeleteIfLastAdmin]: envBoolean(true),
    [USERS_CONFIG_ENV.perPageDefault]: z.coerce.number().int().min(1).max(1000).default(10),
    [USERS_CONFIG_ENV.perPageMax]: z.coerce.number().int().min(1).max(1000).default(100),
  })
  .refine((v) => v[USERS_CONFIG_ENV.perPageDefault] <= v[USERS_CONFIG_ENV.perPageMax], {
    message: 'must not exceed USERS_LIST_PER_PAGE_MAX',
    path: [USERS_CONFIG_ENV.perPageDefault],
  });

export interface UsersConfig {
  activation: { blockSelfDeactivate: boolean; blockDeactivateIfLastAdmin: boolean; adminRoleName: string };
  deletion: { requireInactive: boolean; blockIfLastAdmin: boolean };
  list: { perPageDefault: number; perPageMax: number };
}

export const usersConfigEnvSchema = UsersEnvSchema.transform(
  (v): UsersConfig => ({
    activation: {
      blockSelfDeactivate: v[USERS_CONFIG_ENV.blockSelfDeactivate],
      blockDeactivateIfLastAdmin: v[USERS_CONFIG_ENV.blockDeactivateIfLastAdmin],
      adminRoleName: v[USERS_CONFIG_ENV.adminRoleName],
    },
    deletion: {
      requireInactive: v[USERS_CONFIG_ENV.requireInactive],
      blockIfLastAdmin: v[USERS_CONFIG_ENV.blockDeleteIfLastAdmin],
    },
    list: { perPageDefault: v[USERS_CONFIG_ENV.perPageDefault], perPageMax: v[USERS_CONFIG_ENV.perPageMax] },
  }),
);
