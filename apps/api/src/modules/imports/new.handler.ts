import type { ImportNewResult } from '@app/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import { loadRoleGrants } from '../../repositories/role-grants.js';
import { roleOptions } from '../../domain/escalation.js';
import { importChoices } from '../../domain/imports.rules.js';
import { attributeFieldsFor } from '../attributes/attribute-values.repository.js';

/**
 * GET /users/imports/new: what the import page may offer this caller — each mode and option as
 * the submission's own rule judges it (domain/imports.rules.ts), and each role as a default role
 * under the rule the submission's `defaultRoles` meet (anti-escalation, with its sentence), and
 * the custom attributes a column can fill (those the caller may see).
 */
export async function newImportForm({ ctx }: { ctx: { db: Database; actor: Actor } }): Promise<ImportNewResult> {
  return {
    ...importChoices(ctx.actor),
    defaultRoles: roleOptions(ctx.actor, await loadRoleGrants(ctx.db, 'all')),
    attributes: await attributeFieldsFor(ctx.db, ctx.actor),
  };
}
