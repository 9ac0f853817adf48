import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { Actor, AuthMethod } from './actor.js';
import { loadActor } from './actor.js';
import { apiTokenHash, resolveApiToken, tokenPermissions } from './api-tokens.js';
import { deleteSession, resolveSession, sessionIdOf, sessionLimits } from './sessions.js';

export interface Credentials {
  authorization?: string | undefined;
  sessionCookie?: string | undefined;
  /** The client's address, recorded as a token's last-used IP. */
  ip?: string | null | undefined;
}

export interface Authenticated {
  actor: Actor | null;
  auth: AuthMethod | null;
}

const ANONYMOUS: Authenticated = { actor: null, auth: null };

/**
 * A session is held at enrolment when one of its user's roles requires a second factor, the user
 * has none, and the sign-in did not meet one another way (an identity provider saying it asked
 * for one). Tokens are never held: a person makes them, and scripts cannot enrol.
 */
const heldAtEnrolment = (
  twoFactor: { enrolled: boolean; required: boolean } | undefined,
  sessionSecondFactor: string | null,
): boolean => Boolean(twoFactor?.required && !twoFactor.enrolled && sessionSecondFactor === null);

/** `Authorization: Bearer <token>` → the token; anything else in that header → undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

/**
 * Resolves the caller of one request. A bearer token, when sent, is the only credential looked
 * at (a bad token never falls back to a cookie); it acts with its owner's permissions as they
 * are now, narrowed to its scopes, so it never holds more than its owner, even just after the
 * owner lost a permission. A session whose user is no longer active is deleted, so reactivating
 * the account does not revive it. The credential and the account behind it are read side by
 * side (one round trip, not two): the account is keyed by the credential.
 */
export async function authenticate(db: Database, config: AppConfig, creds: Credentials): Promise<Authenticated> {
  if (creds.authorization !== undefined) {
    const token = bearerToken(creds.authorization);
    const tokenHash = token ? apiTokenHash(token) : null;
    if (!tokenHash) return ANONYMOUS;
    const [resolved, owner] = await Promise.all([
      resolveApiToken(db, tokenHash, creds.ip || null),
      loadActor(db, { tokenHash }),
    ]);
    if (!resolved || !owner || owner.id !== resolved.userId) return ANONYMOUS;
    const { tokenId, tokenName, scopes } = resolved;
    return {
      actor: { ...owner, permissions: tokenPermissions(owner.permissions, scopes) },
      auth: { via: 'token', tokenId, tokenName, scopes },
    };
  }
  if (!creds.sessionCookie) return ANONYMOUS;
  const sessionId = sessionIdOf(creds.sessionCookie);
  const [session, actor] = await Promise.all([
    resolveSession(db, sessionId, sessionLimits(config)),
    loadActor(db, { sessionId }),
  ]);
  if (!session) return ANONYMOUS;
  if (!actor || actor.id !== session.userId) {
    await deleteSession(db, session.sessionId);
    return ANONYMOUS;
  }
  const held = heldAtEnrolment(actor.twoFactor, session.secondFactor);
  return {
    actor: held ? { ...actor, heldAtEnrolment: true } : actor,
    auth: { via: 'session', sessionId: session.sessionId },
  };
}
