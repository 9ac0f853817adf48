import { rest } from '../../lib/rest';

/** A provider as the API answers it (SPEC §14): never its secret, only whether one is stored. */
export interface Provider {
  id: number;
  name: string;
  issuer: string;
  client_id: string;
  client_secret_set: boolean;
  allowed_domains: string[];
  create_users: boolean;
  default_roles: string[];
  redirect_uri?: string;
}

export interface ProviderInput {
  name: string;
  issuer: string;
  client_id: string;
  /** Left out on an edit to keep the stored one. */
  client_secret?: string;
  allowed_domains: string[];
  create_users: boolean;
  default_roles: string[];
}

export const PROVIDERS_PATH = '/settings/sign-in';
export const providerKeys = { all: ['auth', 'providers'] as const };

/** `/auth/providers` CRUD, under `auth.manage`. */
export const providersApi = {
  list: () => rest<{ rows: Provider[] }>('GET', '/auth/providers'),
  show: (id: number) => rest<{ item: Provider }>('GET', `/auth/providers/${id}`),
  create: (input: ProviderInput) => rest<{ item: Provider }>('POST', '/auth/providers', input),
  update: (id: number, input: ProviderInput) => rest<{ item: Provider }>('PUT', `/auth/providers/${id}`, input),
  remove: (id: number) => rest<undefined>('DELETE', `/auth/providers/${id}`),
};
