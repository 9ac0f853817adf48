import type * as Client from 'openid-client';
import type { AppConfig } from '../config.js';
import { literalAddress, nonPublicRange, refusedHost } from '../webhooks/ssrf.js';
import { guardedFetch } from './oidc-fetch.js';

/**
 * The OpenID Connect client library, loaded with the first provider saved or used: an instance
 * that never signs anyone in through a provider keeps it (and its JOSE library) out of its
 * memory (issue 41, idle RSS).
 */
export const openidClient = (): Promise<typeof Client> => import('openid-client');

/** A provider request (discovery, keys, tokens) that takes longer than this fails the sign-in. */
const PROVIDER_TIMEOUT_SECONDS = 10;

export interface ProviderSettings {
  /** SSO_ALLOW_INSECURE_ISSUER: http:// issuers on loopback or private addresses (tests only). */
  allowInsecure: boolean;
}

export const providerSettings = (config: Pick<AppConfig, 'SSO_ALLOW_INSECURE_ISSUER'>): ProviderSettings => ({
  allowInsecure: config.SSO_ALLOW_INSECURE_ISSUER,
});

const isPrivateHost = (hostname: string) => {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const address = literalAddress(host);
  return address !== null && nonPublicRange(address) !== null;
};

/**
 * Why an issuer URL is refused before anything is fetched, or null. https only; an http issuer
 * is admitted with SSO_ALLOW_INSECURE_ISSUER=true and only on a loopback or private address
 * (a provider the tests run). Without the flag, an issuer written as a non-public address or
 * `localhost` is refused as the webhooks refuse such targets (SSRF); names are judged again
 * when they are resolved, at each connection (`guardedFetch`).
 */
export function issuerProblem(issuer: string, settings: ProviderSettings): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'Give the issuer as an absolute URL, such as https://login.example.com/realms/staff.';
  }
  if (url.username || url.password) return 'Leave the user name and password out of the issuer URL.';
  if (url.search || url.hash) return 'The issuer URL has no query or #fragment.';
  if (url.protocol === 'http:') {
    if (settings.allowInsecure && isPrivateHost(url.hostname)) return null;
    return 'The issuer must use https://.';
  }
  if (url.protocol !== 'https:') return 'The issuer must use https://.';
  if (settings.allowInsecure) return null;
  const refused = refusedHost(issuer);
  return refused
    ? refused.replace('The URL points', 'The issuer points').replace('deliveries there', 'sign-ins there')
    : null;
}

const fetchOptions = (client: typeof Client, issuer: string, settings: ProviderSettings) => ({
  [client.customFetch]: guardedFetch(settings.allowInsecure, PROVIDER_TIMEOUT_SECONDS * 1000),
  timeout: PROVIDER_TIMEOUT_SECONDS,
  execute: [
    // Signatures are checked against the provider's keys even for tokens from its token endpoint.
    client.enableNonRepudiationChecks,
    ...(new URL(issuer).protocol === 'http:' ? [client.allowInsecureRequests] : []),
  ],
});

/**
 * Reads the issuer's discovery document (OpenID Connect Discovery 1.0) and answers it, or throws
 * with a sentence for the administrator. The library checks that the document names this issuer.
 */
export async function discover(issuer: string, clientId: string, settings: ProviderSettings): Promise<string> {
  try {
    const client = await openidClient();
    const found = await client.discovery(
      new URL(issuer),
      clientId,
      undefined,
      undefined,
      fetchOptions(client, issuer, settings),
    );
    const metadata = found.serverMetadata();
    if (!metadata.authorization_endpoint || !metadata.token_endpoint || !metadata.jwks_uri) {
      throw new Error('it names no authorization endpoint, token endpoint or key set');
    }
    return JSON.stringify(metadata);
  } catch (err) {
    // The library's own message for a failed request is generic; the cause says what failed.
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new DiscoveryFailed(`The issuer's discovery document could not be read: ${reason}.`);
  }
}

export class DiscoveryFailed extends Error {}

/** The client for a saved provider, from the document read when it was saved. */
export async function providerClient(
  provider: { issuer: string; metadata: string; clientId: string; clientSecret: string },
  settings: ProviderSettings,
): Promise<Client.Configuration> {
  const client = await openidClient();
  const options = fetchOptions(client, provider.issuer, settings);
  const config = new client.Configuration(
    JSON.parse(provider.metadata) as Client.ServerMetadata,
    provider.clientId,
    undefined,
    client.ClientSecretBasic(provider.clientSecret),
  );
  config[client.customFetch] = options[client.customFetch];
  config.timeout = options.timeout;
  for (const step of options.execute) step(config);
  return config;
}
