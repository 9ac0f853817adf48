import { PERMISSIONS, type Permission } from '@app/contracts';

/** Permission names in the contract's order; names the contract does not know are left out. */
export const permissionsInOrder = (names: Iterable<string>): Permission[] => {
  const set = new Set(names);
  return PERMISSIONS.filter((p) => set.has(p));
};

export interface ScopeParties {
  /** The scopes asked for; absent or null: none asked. */
  requested: readonly Permission[] | null | undefined;
  /** Whose token it will be, with what they hold now. */
  owner: { id: number; name: string; permissions: ReadonlySet<string> };
  /** Who asks: their id, what they may do in this request, and whether that is a narrowed token's subset. */
  caller: { id: number; permissions: ReadonlySet<string>; narrowed: boolean };
}

export type ScopeDecision = { scopes: Permission[] | null } | { refusal: string };

const listed = (names: string[]) => names.join(', ');

/**
 * The scopes of a new token, or why it cannot have them. A token never holds more than its
 * owner, nor more than the caller who makes it: asked-for scopes must be held by both; a caller
 * that is itself a narrowed token and asks for none passes its own narrowing on (what it may do
 * and the owner holds), so a narrowed token cannot mint a broader one. Otherwise no scopes means
 * "all of the owner's", judged again at every request.
 */
export function decideScopes({ requested, owner, caller }: ScopeParties): ScopeDecision {
  if (!requested) {
    if (!caller.narrowed) return { scopes: null };
    return { scopes: scopeOptions(owner, caller) };
  }
  const self = owner.id === caller.id;
  const ownerLacks = permissionsInOrder(requested.filter((p) => !owner.permissions.has(p)));
  if (ownerLacks.length > 0) {
    const who = self ? 'You do not' : `${owner.name} does not`;
    return {
      refusal: `${who} hold ${listed(ownerLacks)}: a token can only be narrowed to permissions its owner holds.`,
    };
  }
  const callerLacks = permissionsInOrder(requested.filter((p) => !caller.permissions.has(p)));
  if (callerLacks.length > 0) {
    const who = caller.narrowed ? 'The token you are using does not' : 'You do not';
    return {
      refusal: `${who} hold ${listed(callerLacks)}: a token cannot be given permissions its maker does not have.`,
    };
  }
  return { scopes: permissionsInOrder(requested) };
}

/**
 * The scopes a new token may be narrowed to, as `decideScopes` would accept them: every
 * permission both the owner and the caller hold, in the contract's order. Forms offer these.
 */
export function scopeOptions(
  owner: { permissions: ReadonlySet<string> },
  caller: { permissions: ReadonlySet<string> },
): Permission[] {
  return permissionsInOrder([...owner.permissions].filter((p) => caller.permissions.has(p)));
}
