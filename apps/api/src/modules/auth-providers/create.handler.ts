import { AUTH_PROVIDERS_MAX, type AuthProviderInput, type AuthProviderItem, ROOT_ERROR_KEY } from '@app/contracts';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import type { ManageCall } from './providers.call.js';
import { auditedFields, toProviderItem } from './providers.repository.js';
import { judgeProvider } from './providers.save.js';

const tooMany = () => {
  const message = `There can be at most ${AUTH_PROVIDERS_MAX} identity providers: delete one you no longer use first.`;
  return new AppError('VALIDATION_FAILED', message, { errors: { [ROOT_ERROR_KEY]: [message] } });
};

/** POST /auth/providers: 201 with the provider; its discovery document read first (422 when it cannot be). */
export async function createProvider({ ctx, input }: ManageCall<AuthProviderInput>): Promise<AuthProviderItem> {
  const { db } = ctx;
  const judged = await judgeProvider(ctx, input, null);
  return writeTransaction(db, async (tx) => {
    if ((await db.models.AuthProvider.count({ transaction: tx })) >= AUTH_PROVIDERS_MAX) throw tooMany();
    const fields = { ...input, issuer: judged.issuer, default_roles: judged.defaultRoles };
    const row = await db.models.AuthProvider.create(
      {
        name: input.name,
        issuer: judged.issuer,
        metadata: judged.metadata,
        client_id: input.client_id,
        client_secret: judged.sealedSecret ?? '',
        allowed_domains: input.allowed_domains,
        create_users: input.create_users,
        default_roles: judged.defaultRoles,
        created_by: ctx.actor.id,
      },
      { transaction: tx },
    );
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'authProvider.create',
      targetType: 'auth_provider',
      targetIds: [row.id],
      changes: diff(null, auditedFields(fields)),
    });
    return { item: toProviderItem(row, ctx.config) };
  });
}
