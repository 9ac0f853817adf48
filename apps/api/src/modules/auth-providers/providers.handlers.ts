import {
  AUTH_PROVIDERS_MAX,
  type AuthProviderInput,
  type AuthProviderItem,
  type AuthProviderList,
  type IdInput,
  type PublicAuthProviderList,
  ROOT_ERROR_KEY,
} from '@app/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../context.js';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import { auditedFields, findProvider, toProviderItem } from './providers.repository.js';
import { judgeProvider } from './providers.save.js';

/** What every provider handler is called with: a signed-in caller holding `auth.manage`. */
interface ManageCall<Input> {
  ctx: Context & { actor: Actor };
  input: Input;
}

const tooMany = () => {
  const message = `There can be at most ${AUTH_PROVIDERS_MAX} identity providers: delete one you no longer use first.`;
  return new AppError('VALIDATION_FAILED', message, { errors: { [ROOT_ERROR_KEY]: [message] } });
};

/** GET /auth/providers: every provider, by name (they are few: no paging). */
export async function listProviders({ ctx }: { ctx: Context }): Promise<AuthProviderList> {
  const rows = await ctx.db.models.AuthProvider.findAll({
    order: [
      ['name', 'ASC'],
      ['id', 'ASC'],
    ],
  });
  const total = rows.length;
  return {
    rows: rows.map((row) => toProviderItem(row, ctx.config)),
    meta: { page: 1, perPage: Math.max(total, 1), total, totalExact: true, pageCount: total ? 1 : 0 },
  };
}

/** GET /auth/providers/public: the sign-in page's buttons — ids and names only. */
export async function listPublicProviders({ ctx }: { ctx: Context }): Promise<PublicAuthProviderList> {
  const rows = await ctx.db.models.AuthProvider.findAll({
    attributes: ['id', 'name'],
    order: [
      ['name', 'ASC'],
      ['id', 'ASC'],
    ],
  });
  return rows.map((row) => ({ id: row.id, name: row.name }));
}

/** GET /auth/providers/{id}. */
export async function showProvider({ ctx, input }: ManageCall<IdInput>): Promise<AuthProviderItem> {
  return { item: toProviderItem(await findProvider(ctx.db, input.id), ctx.config) };
}

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

/** DELETE /auth/providers/{id}: its button goes; sign-ins it started and not finished end with it. */
export async function deleteProvider({ ctx, input }: ManageCall<IdInput>): Promise<void> {
  const { db } = ctx;
  await writeTransaction(db, async (tx) => {
    const row = await findProvider(db, input.id, tx);
    const before = auditedFields(row);
    await db.sequelize.query('DELETE FROM sso_attempts WHERE provider_id = :id', {
      replacements: { id: row.id },
      transaction: tx,
    });
    await row.destroy({ transaction: tx });
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'authProvider.delete',
      targetType: 'auth_provider',
      targetIds: [row.id],
      changes: diff(before, null),
    });
  });
}
