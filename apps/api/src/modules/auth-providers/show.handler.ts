import type { AuthProviderItem, IdInput } from '@app/contracts';
import type { ManageCall } from './providers.call.js';
import { findProvider, toProviderItem } from './providers.repository.js';

/** GET /auth/providers/{id}: never its secret, only that one is stored. */
export async function showProvider({ ctx, input }: ManageCall<IdInput>): Promise<AuthProviderItem> {
  return { item: toProviderItem(await findProvider(ctx.db, input.id), ctx.config) };
}
