import { initialSchema } from './0001-initial-schema.js';
import { rateLimits } from './0002-rate-limits.js';
import { userStats } from './0003-user-stats.js';
import { usersActiveCreatedIndex } from './0004-users-active-created-index.js';
import { writeLocks } from './0005-write-locks.js';
import { deferrableUserStats } from './0006-deferrable-user-stats.js';
import { userSearchIndex } from './0007-user-search-index.js';
import { auditTrail } from './0008-audit-trail.js';
import { auditTargetTime } from './0009-audit-target-time.js';
import { tokensWebhooks } from './0010-tokens-webhooks.js';
import { withholdFailedLoginEmails } from './0011-withhold-failed-login-emails.js';
import { jobs } from './0012-jobs.js';
import { jobState } from './0013-job-state.js';
import { imports } from './0014-imports.js';
import { rolesEditing } from './0015-roles-editing.js';
import { rolePermissions } from './0016-role-permissions.js';
import { idempotencyKeys } from './0017-idempotency-keys.js';
import { mailOutbox } from './0018-mail-outbox.js';
import { userLinks } from './0019-user-links.js';
import { twoFactor } from './0020-two-factor.js';
import { authProviders } from './0021-auth-providers.js';
import { usersTwoFactorIndex } from './0022-users-two-factor-index.js';
import { attributes } from './0023-attributes.js';
import { webhookPersonal } from './0024-webhook-personal.js';
import { attributeChangeLease } from './0025-attribute-change-lease.js';
import { auditAttributes } from './0026-audit-attributes.js';
import { scimUserName } from './0027-scim-user-name.js';
import { roleNameKey } from './0028-role-name-key.js';
import { scimEnterpriseMapping } from './0029-scim-enterprise-mapping.js';
import { scimIdentities } from './0030-scim-identities.js';
import { scimNameParts } from './0031-scim-name-parts.js';
import { jobItemChanges } from './0032-job-item-changes.js';
import { seededRoleDescriptions } from './0033-seeded-role-descriptions.js';
import { userRoleKeys } from './0034-user-role-keys.js';
import { attributeHolderState } from './0035-attribute-holder-state.js';
import { userRoleEnumKeys } from './0036-user-role-enum-keys.js';
import { sortIndexesCoverCreation } from './0037-sort-indexes-cover-creation.js';
import { roleKeysByRoleAndDate } from './0038-role-keys-by-role-and-date.js';
import type { Migration } from './migration.js';

/** Every migration, in the order it runs. Append only. */
export const MIGRATIONS: readonly Migration[] = [
  initialSchema,
  rateLimits,
  userStats,
  usersActiveCreatedIndex,
  writeLocks,
  deferrableUserStats,
  userSearchIndex,
  auditTrail,
  auditTargetTime,
  tokensWebhooks,
  withholdFailedLoginEmails,
  jobs,
  jobState,
  imports,
  rolesEditing,
  rolePermissions,
  idempotencyKeys,
  mailOutbox,
  userLinks,
  twoFactor,
  authProviders,
  usersTwoFactorIndex,
  attributes,
  webhookPersonal,
  attributeChangeLease,
  auditAttributes,
  scimUserName,
  roleNameKey,
  scimEnterpriseMapping,
  scimIdentities,
  scimNameParts,
  jobItemChanges,
  seededRoleDescriptions,
  userRoleKeys,
  attributeHolderState,
  userRoleEnumKeys,
  sortIndexesCoverCreation,
  roleKeysByRoleAndDate,
];
