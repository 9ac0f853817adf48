import { type AuthProviderInput, roleNameKey } from '@app/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../context.js';
import { roleRefusal, rolesByName } from '../../domain/escalation.js';
import { AppError } from '../../errors.js';
import { loadRoleGrants } from '../../repositories/role-grants.js';
import { secretKeysOf } from '../../webhooks/settings.js';
import { sealSecret } from '../../webhooks/secret-box.js';
import { DiscoveryFailed, discover, issuerProblem, providerSettings } from '../../sso/oidc.js';

const fieldError = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { errors: { [field]: [message] } });

/** The saved form of a provider's input: the discovery document and the roles by their own names. */
export interface JudgedProvider {
  issuer: string;
  metadata: string;
  defaultRoles: string[];
  /** The new secret sealed, or undefined to keep the stored one (a PUT without one). */
  sealedSecret: string | undefined;
}

/**
 * Checks a provider before it is saved, in the order an administrator fixes them: the issuer
 * (https, not an internal address), the secret, the default roles (each exists, and the saver may
 * grant each it adds or removes, as for a user's roles), then the issuer's discovery document,
 * read now so a typo is a 422 here and not a failed sign-in later.
 */
export async function judgeProvider(
  ctx: Context & { actor: Actor },
  input: AuthProviderInput,
  before: { defaultRoles: string[] } | null,
): Promise<JudgedProvider> {
  const settings = providerSettings(ctx.config);
  const issuer = input.issuer.replace(/\/+$/, '');
  const problem = issuerProblem(issuer, settings);
  if (problem) throw fieldError('issuer', problem);
  if (!before && input.client_secret === undefined) throw fieldError('client_secret', 'Give the client secret.');
  const defaultRoles = await judgeRoles(ctx, input.default_roles, before?.defaultRoles ?? []);
  let metadata: string;
  try {
    metadata = await discover(issuer, input.client_id, settings);
  } catch (err) {
    if (err instanceof DiscoveryFailed) throw fieldError('issuer', err.message);
    throw err;
  }
  const sealedSecret =
    input.client_secret === undefined ? undefined : sealSecret(input.client_secret, secretKeysOf(ctx.config));
  return { issuer, metadata, defaultRoles, sealedSecret };
}

/** The default roles by their own names; 422 for a name no role has, 403 for one beyond the saver. */
async function judgeRoles(ctx: Context & { actor: Actor }, names: string[], before: string[]): Promise<string[]> {
  if (names.length === 0 && before.length === 0) return [];
  const roles = await loadRoleGrants(ctx.db, 'all');
  // Roles are one whatever their case and spacing (migration 0028): matched by their keys.
  const byName = new Map(roles.map((r) => [roleNameKey(r.name), r]));
  const kept = new Set(before.map(roleNameKey));
  const lower = names.map(roleNameKey);
  for (const [index, name] of names.entries()) {
    if (!byName.has(roleNameKey(name))) {
      const message = `There is no role named "${name}".`;
      throw new AppError('VALIDATION_FAILED', message, { errors: { [`default_roles.${index}`]: [message] } });
    }
  }
  // Only the roles added or removed are the saver's to grant: one an administrator set stays.
  const changed = [
    ...lower.filter((n) => !kept.has(n)),
    ...[...kept].filter((n) => !lower.includes(n) && byName.has(n)),
  ];
  const judged = rolesByName(ctx.actor, byName, changed);
  if ('beyond' in judged) {
    const message = roleRefusal(judged.beyond, judged.beyond.missing);
    throw new AppError('FORBIDDEN', message, {
      errors: { default_roles: [message] },
      extra: { permission: judged.beyond.missing[0] ?? '' },
    });
  }
  return [...new Set(names.map((n) => byName.get(roleNameKey(n))?.name as string))];
}
