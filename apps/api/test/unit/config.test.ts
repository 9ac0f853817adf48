import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('starts with nothing configured: SQLite under ./data, port 3000, rules on', () => {
    const config = loadConfig({});
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toMatch(/data$/);
    expect(config.ADMIN_EMAIL).toBe('admin@example.com');
    expect(config.DEMO_USERS).toBe(250);
    expect(config.users).toEqual({
      activation: { blockSelfDeactivate: true, blockDeactivateIfLastAdmin: true, adminRoleName: 'admin' },
      deletion: { requireInactive: true, blockIfLastAdmin: true },
      list: { perPageDefault: 10, perPageMax: 100 },
    });
  });

  it('lets each business rule be overridden by its environment variable', () => {
    const config = loadConfig({
      USERS_ACTIVATION_BLOCK_SELF_DEACTIVATE: 'false',
      USERS_ACTIVATION_BLOCK_DEACTIVATE_IF_LAST_ADMIN: '0',
      USERS_ACTIVATION_ADMIN_ROLE_NAME: 'superuser',
      USERS_DELETION_REQUIRE_INACTIVE: 'FALSE',
      USERS_DELETION_BLOCK_IF_LAST_ADMIN: '0',
      USERS_LIST_PER_PAGE_DEFAULT: '25',
      USERS_LIST_PER_PAGE_MAX: '50',
    });
    expect(config.users).toEqual({
      activation: { blockSelfDeactivate: false, blockDeactivateIfLastAdmin: false, adminRoleName: 'superuser' },
      deletion: { requireInactive: false, blockIfLastAdmin: false },
      list: { perPageDefault: 25, perPageMax: 50 },
    });
  });

  it('reports every bad value at once, by variable name', () => {
    try {
      loadConfig({ PORT: 'abc', USERS_DELETION_REQUIRE_INACTIVE: 'maybe', DATABASE_URL: 'postgres://x/y' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as ConfigError).message;
      expect(message).toContain('PORT');
      expect(message).toContain('USERS_DELETION_REQUIRE_INACTIVE: must be true, false, 1 or 0 (got "maybe")');
      expect(message).toContain('DATABASE_URL: must look like mysql://');
    }
  });

  it('refuses a default page size above the maximum', () => {
    expect(() => loadConfig({ USERS_LIST_PER_PAGE_DEFAULT: '200', USERS_LIST_PER_PAGE_MAX: '100' })).toThrow(
      /USERS_LIST_PER_PAGE_DEFAULT/,
    );
  });

  it('accepts a MariaDB URL and read replicas', () => {
    const config = loadConfig({
      DATABASE_URL: 'mariadb://app:secret@db:3306/users',
      DATABASE_READ_URLS: 'mysql://ro@r1:3306/users, mysql://ro@r2:3306/users',
    });
    expect(config.DATABASE_READ_URLS).toHaveLength(2);
  });
});
