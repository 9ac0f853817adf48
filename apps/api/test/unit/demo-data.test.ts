import { describe, expect, it } from 'vitest';
import { demoUser } from '../../src/seed/demo-data.js';

describe('demo data', () => {
  it('is deterministic: index i always yields the same user', () => {
    expect(demoUser(41)).toEqual(demoUser(41));
    expect(demoUser(41)).not.toEqual(demoUser(42));
  });

  it('varies roles, states and creation dates, and only trashes inactive users', () => {
    const users = Array.from({ length: 250 }, (_, i) => demoUser(i));
    const roles = new Set(users.flatMap((u) => u.roles));
    expect(roles).toEqual(new Set(['admin', 'manager', 'viewer']));
    expect(users.some((u) => u.roles.length === 0)).toBe(true);
    const inactive = users.filter((u) => !u.is_active).length;
    expect(inactive).toBeGreaterThan(20);
    expect(inactive).toBeLessThan(80);
    expect(users.filter((u) => u.deleted_at).every((u) => !u.is_active)).toBe(true);
    expect(users.some((u) => u.deleted_at)).toBe(true);
    const years = new Set(users.map((u) => u.created_at.getUTCFullYear()));
    expect(years.size).toBeGreaterThanOrEqual(3);
    expect(new Set(users.map((u) => u.email)).size).toBe(250);
  });
});
