import { describe, expect, it } from 'vitest';
import { hashPassword, UNUSABLE_PASSWORD, verifyPassword } from '../../src/auth/password.js';

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same password')).not.toBe(await hashPassword('same password'));
  });

  it('matches nothing against an unusable or malformed hash, at full cost', async () => {
    const real = await hashPassword('x'.repeat(12));
    const t0 = performance.now();
    await verifyPassword('anything', real);
    const realCost = performance.now() - t0;
    const t1 = performance.now();
    expect(await verifyPassword('anything', UNUSABLE_PASSWORD)).toBe(false);
    const fakeCost = performance.now() - t1;
    expect(await verifyPassword('anything', null)).toBe(false);
    // Same order of magnitude: an attacker cannot tell "no password" from "wrong password".
    expect(fakeCost).toBeGreaterThan(realCost / 4);
  });
});
