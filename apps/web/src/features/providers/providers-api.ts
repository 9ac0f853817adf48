import type { AuthProvider, AuthProviderInput, AuthProviderItem, AuthProviderList } from '@app/contracts';
import { rest } from '../../lib/rest';

/** A provider as the API answers it (SPEC §14): never its secret, only whether one is stored. */
export type Provider = AuthProvider;
/** What a save sends; `client_secret` left out on an edit keeps the stored one. */
export type ProviderInput = AuthProviderInput;

export const PROVIDERS_PATH = '/settings/sign-in';
export const providerKeys = { all: ['auth', 'providers'] as const };

/** `/auth/providers` CRUD, under `auth.manage`. */
export const providersApi = {
  list: () => rest<AuthProviderList>('GET', '/auth/providers'),
  show: (id: number) => rest<AuthProviderItem>('GET', `/auth/providers/${id}`),
  create: (input: ProviderInput) => rest<AuthProviderItem>('POST', '/auth/providers', input),
  update: (id: number, input: ProviderInput) => rest<AuthProviderItem>('PUT', `/auth/providers/${id}`, input),
  remove: (id: number) => rest<undefined>('DELETE', `/auth/providers/${id}`),
};
