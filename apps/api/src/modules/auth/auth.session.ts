import { type AuthSession, capabilityMap } from '@app/contracts';
import type { Actor } from '../../auth/actor.js';

/** The answer of login and `GET /auth/me`: who is signed in, the full capability map, the second factor. */
export function toAuthSession(actor: Actor): AuthSession {
  return {
    user: { id: actor.id, name: actor.name, email: actor.email },
    can: capabilityMap(actor.permissions),
    two_factor: actor.twoFactor ?? { enrolled: false, required: false },
  };
}
