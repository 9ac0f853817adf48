import type { AuthProviderList, PublicAuthProviderList } from '@app/contracts';
import type { Context } from '../../context.js';
import { toProviderItem } from './providers.repository.js';

/** GET /auth/providers: every provider, by name (they are few: one page). */
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
