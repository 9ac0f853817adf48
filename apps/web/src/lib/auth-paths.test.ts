import { capabilityMap } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { homePathFor, loginPathFor, safeNextPath } from './auth-paths';

const ORIGIN = 'http://localhost';

describe('auth paths', () => {
  it('follows a same-origin path with its query and hash', () => {
    expect(safeNextPath('/users/7?tab=roles#top', ORIGIN)).toBe('/users/7?tab=roles#top');
  });

  it('refuses a next that would leave the site or loop back to the login page', () => {
    for (const next of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'users',
      '/\t/evil.example',
      '/login?next=/x',
    ]) {
      expect(safeNextPath(next, ORIGIN)).toBeNull();
    }
    expect(safeNextPath(null, ORIGIN)).toBeNull();
  });

  it('remembers the page to come back to, but not the start page', () => {
    expect(loginPathFor({ pathname: '/users/5', search: '?x=1' })).toBe('/login?next=%2Fusers%2F5%3Fx%3D1');
    expect(loginPathFor({ pathname: '/', search: '' })).toBe('/login');
  });

  it('starts at the users list only for accounts that may see it', () => {
    expect(homePathFor(capabilityMap(['users.view']))).toBe('/users');
    expect(homePathFor(capabilityMap(['roles.view']))).toBe('/account');
  });
});
