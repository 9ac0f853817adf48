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

  it('trusts no proxy unless told: unset, empty, false and 0 all mean nobody', () => {
    for (const TRUST_PROXY of [undefined, '', '  ', 'false', 'FALSE', '0']) {
      expect(loadConfig(TRUST_PROXY === undefined ? {} : { TRUST_PROXY }).TRUST_PROXY, String(TRUST_PROXY)).toBe(false);
    }
  });

  it('takes TRUST_PROXY as a hop count', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: ' 2 ' }).TRUST_PROXY).toBe(2);
  });

  it('takes TRUST_PROXY as a list of addresses, CIDR ranges and proxy-addr range names', () => {
    const config = loadConfig({
      TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1 , fd00::/8, ::ffff:192.0.2.1, Loopback, linklocal, uniquelocal',
    });
    expect(config.TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      '::ffff:192.0.2.1',
      'loopback',
      'linklocal',
      'uniquelocal',
    ]);
  });

  it('refuses TRUST_PROXY=true, saying what to give instead', () => {
    for (const TRUST_PROXY of ['true', 'TRUE']) {
      expect(() => loadConfig({ TRUST_PROXY })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY })).toThrow(
        /TRUST_PROXY: "true" would trust every hop.*give the number of proxies in front of the app \(e\.g\. 1\) or their addresses/,
      );
    }
  });

  it('names every TRUST_PROXY entry that is not an address, a range or a hop count', () => {
    for (const [TRUST_PROXY, named] of [
      ['yes', '"yes"'],
      ['-1', '"-1"'],
      ['1.5', '"1.5"'],
      ['10.0.0.1, 1', '"1"'],
      ['10.0.0.256', '"10.0.0.256"'],
      ['10.0.0.0/33', '"10.0.0.0/33"'],
      ['::1/129', '"::1/129"'],
      ['10.0.0.0/8/8', '"10.0.0.0/8/8"'],
      ['proxy.internal, 127.0.0.1, 10.0.0.0/x', '"proxy.internal", "10.0.0.0/x"'],
      [',', '","'],
    ]) {
      expect(() => loadConfig({ TRUST_PROXY }), TRUST_PROXY).toThrow(`TRUST_PROXY: ${named} is not a hop count`);
    }
  });

  it('accepts a MariaDB URL and read replicas', () => {
    const config = loadConfig({
      DATABASE_URL: 'mariadb://app:secret@db:3306/users',
      DATABASE_READ_URLS: 'mysql://ro@r1:3306/users, mysql://ro@r2:3306/users',
    });
    expect(config.DATABASE_READ_URLS).toHaveLength(2);
  });
});
