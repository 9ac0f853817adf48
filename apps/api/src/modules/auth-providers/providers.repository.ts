import type { AuthProvider } from '@app/contracts';
import type { Transaction } from 'sequelize';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { AuthProviderRow } from '../../db/models/index.js';
import { notFound } from '../../errors.js';
import { redirectUriOf } from '../sso/sso.provider.js';

/** The provider with this id, or 404. */
export async function findProvider(db: Database, id: number, tx?: Transaction): Promise<AuthProviderRow> {
  const row = await db.models.AuthProvider.findByPk(id, { transaction: tx ?? null });
  if (!row) throw notFound('The identity provider');
  return row;
}

/** A provider as answered: its secret never, only that one is stored. */
export function toProviderItem(row: AuthProviderRow, config: AppConfig): AuthProvider {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    client_id: row.client_id,
    client_secret_set: row.client_secret !== '',
    allowed_domains: row.allowed_domains,
    create_users: Boolean(row.create_users),
    default_roles: row.default_roles,
    redirect_uri: redirectUriOf(config, row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The fields of a provider its audit rows show (never the secret). */
export const auditedFields = (p: {
  name: string;
  issuer: string;
  client_id: string;
  allowed_domains: string[];
  create_users: boolean;
  default_roles: string[];
}) => ({
  name: p.name,
  issuer: p.issuer,
  client_id: p.client_id,
  allowed_domains: p.allowed_domains,
  create_users: Boolean(p.create_users),
  default_roles: p.default_roles,
});
