import { PERMISSIONS, type Permission } from '@app/contracts';
import { EMPTY_TOKEN_FORM, type TokenFormValues } from './token-form';

/**
 * What a provisioning client needs: read and change users (create, edit, deactivate, delete) and
 * groups, which are roles. The SCIM door checks each request against the token's own scopes.
 */
export const PROVISIONING_SCOPES = [
  'users.view',
  'users.create',
  'users.update',
  'users.setActive',
  'users.delete',
  'roles.view',
  'roles.create',
  'roles.update',
  'roles.delete',
] as const satisfies readonly Permission[];

// The API mounts the SCIM door here (apps/api/src/scim/scim-door.ts, SCIM_PREFIX).
const SCIM_PATH = '/api/scim/v2';

/** The base URL an identity provider is given: this very site, as the administrator reaches it. */
export const scimBaseUrl = (origin: string): string => `${origin}${SCIM_PATH}`;

const isProvisioning = (permission: Permission) => (PROVISIONING_SCOPES as readonly Permission[]).includes(permission);

/**
 * The token form as the provisioning dialog opens it: its name, limited to the provisioning
 * scopes the administrator holds (the others the server would refuse), in the catalogue's order.
 */
export function provisioningTokenForm(available: readonly Permission[], name: string): TokenFormValues {
  return {
    ...EMPTY_TOKEN_FORM,
    name,
    narrow: true,
    scopes: PERMISSIONS.filter((p) => isProvisioning(p) && available.includes(p)),
  };
}

/** The provisioning scopes the administrator does not hold: what the identity provider will not be able to do. */
export const missingProvisioningScopes = (available: readonly Permission[]): Permission[] =>
  PROVISIONING_SCOPES.filter((permission) => !available.includes(permission));
