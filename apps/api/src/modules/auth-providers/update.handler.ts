import type { AuthProviderInput, AuthProviderItem, IdInput } from '@app/contracts';
import { writeTransaction } from '../../db/transaction.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import type { ManageCall } from './providers.call.js';
import { auditedFields, findProvider, toProviderItem } from './providers.repository.js';
import { judgeProvider } from './providers.save.js';

/** PUT /auth/providers/{id}: the whole provider again; without `client_secret` the stored one stays. */
export async function updateProvider({
  ctx,
  input,
}: ManageCall<IdInput & AuthProviderInput>): Promise<AuthProviderItem> {
  const { db } = ctx;
  const current = await findProvider(db, input.id);
  const judged = await judgeProvider(ctx, input, { defaultRoles: current.default_roles });
  return writeTransaction(db, async (tx) => {
    const row = await findProvider(db, input.id, tx);
    const before = auditedFields(row);
    row.set({
      name: input.name,
      issuer: judged.issuer,
      metadata: judged.metadata,
      client_id: input.client_id,
      allowed_domains: input.allowed_domains,
      create_users: input.create_users,
      default_roles: judged.defaultRoles,
      ...(judged.sealedSecret === undefined ? {} : { client_secret: judged.sealedSecret }),
    });
    await row.save({ transaction: tx });
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'authProvider.update',
      targetType: 'auth_provider',
      targetIds: [row.id],
      changes: diff(before, auditedFields(row)),
      // The secret itself is never written down; that it changed is.
      ...(judged.sealedSecret === undefined ? {} : { context: { client_secret_changed: true } }),
    });
    return { item: toProviderItem(row, ctx.config) };
  });
}
