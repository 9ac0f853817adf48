import { describe, expect, it } from 'vitest';
import { roleOptions } from '../../src/domain/escalation.js';
import { decideScopes, scopeOptions } from '../../src/domain/token-scopes.js';

const held = (...names: string[]) => new Set(names);
const owner = { id: 2, name: 'Ann', permissions: held('users.view', 'roles.view') };
const caller = { id: 1, permissions: held('users.view', 'users.export', 'tokens.manage'), narrowed: false };

describe('token scope options and decisions agree', () => {
  it('offers what both the owner and the caller hold, in the contract order', () => {
    expect(scopeOptions(owner, caller)).toEqual(['users.view']);
    expect(scopeOptions(caller, owner)).toEqual(['users.view']);
  });

  it('accepts every offered scope and refuses each one left out, from either side', () => {
    for (const scope of scopeOptions(owner, caller)) {
      expect(decideScopes({ requested: [scope], owner, caller })).toEqual({ scopes: [scope] });
    }
    expect(decideScopes({ requested: ['roles.view'], owner, caller })).toEqual({
      refusal: 'You do not hold roles.view: a token cannot be given permissions its maker does not have.',
    });
    expect(decideScopes({ requested: ['users.export'], owner, caller })).toEqual({
      refusal: 'Ann does not hold users.export: a token can only be narrowed to permissions its owner holds.',
    });
  });

  it('passes a narrowed caller’s own scopes on when none are asked for: exactly the options', () => {
    const narrowed = { ...caller, narrowed: true };
    expect(decideScopes({ requested: null, owner, caller: narrowed })).toEqual({
      scopes: scopeOptions(owner, narrowed),
    });
  });
});

describe('role options', () => {
  const actor = { id: 1, name: 'Mo', email: 'mo@example.com', permissions: held('users.view', 'roles.view') };

  it('marks a role assignable only when the actor holds all it carries, naming what it lacks', () => {
    expect(
      roleOptions(actor, [
        { id: 3, name: 'viewer', permissions: ['roles.view', 'users.view'] },
        { id: 2, name: 'manager', permissions: ['users.setActive', 'users.view', 'users.update'] },
      ]),
    ).toEqual([
      { id: 3, name: 'viewer', assignable: true },
      {
        id: 2,
        name: 'manager',
        assignable: false,
        missing: ['users.update', 'users.setActive'],
        reason:
          'You cannot grant or remove the role manager: it carries permissions you do not hold (users.update, users.setActive).',
      },
    ]);
  });
});
