import type { Transaction } from 'sequelize';
import { randomBytes } from 'node:crypto';
import { argon2id } from 'hash-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needsRehash, verifyPassword } from '../../src/auth/password.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 26: a user imported with the old system's password hash signs in with the old password,
 * and that first success replaces the hash with this product's own (scrypt).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Laravel's UserFactory hash of "password". */
const LARAVEL = '$2y$10$92IXUNpkjO0rOQ5byMi.Ye4oKoEa3Ro9llC/.og/at2.uheWG/igi';
/** A password the secret scan knows (test/support/secrets.ts), for the argon2id user. */
const ARGON_PASSWORD = 'first-Secret-1234';

/** A user whose password_hash is written straight into the table, as an import stores it. */
async function importedUser(hash: string) {
  const user = await given(t.db).user();
  await t.db.models.User.update({ password_hash: hash }, { where: { id: user.id } });
  return user;
}

const storedRow = async (id: number) => {
  const row = await t.db.models.User.scope('withPassword').findByPk(id);
  if (!row) throw new Error(`user ${id} is gone`);
  return row;
};

const login = (email: string, password: string) => request(t.app).post('/api/auth/login', { email, password });

const withoutRequestId = (body: string) => {
  const { requestId: _, ...rest } = JSON.parse(body) as Record<string, unknown>;
  return rest;
};

describe('signing in with an imported bcrypt hash', () => {
  it('signs in, replaces the hash with scrypt, and signs in again with the same password', async () => {
    const ann = await importedUser(LARAVEL);
    const before = await storedRow(ann.id);

    expect((await login(ann.email, 'password')).statusCode).toBe(200);
    const after = await storedRow(ann.id);
    expect(after.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(needsRehash(after.password_hash)).toBe(false);
    expect(await verifyPassword('password', after.password_hash)).toBe(true);
    // Nothing a person sees changed: no new version for an open edit form, no "updated" time.
    expect(after.lock_version).toBe(before.lock_version);
    expect(after.updated_at.getTime()).toBe(before.updated_at.getTime());

    expect((await login(ann.email, 'password')).statusCode).toBe(200);
    expect((await storedRow(ann.id)).password_hash).toBe(after.password_hash);

    // Neither hash reaches the audit.
    const audit = await t.db.models.AuditLog.findAll({ where: { action: 'auth.login' } });
    const text = JSON.stringify(audit.map((row) => row.get()));
    expect(text).not.toContain(LARAVEL);
    expect(text).not.toContain(after.password_hash);
  });

  it('refuses a wrong password with the usual 401 and leaves the bcrypt hash as it was', async () => {
    const bob = await importedUser(LARAVEL);
    const wrong = await login(bob.email, 'Password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect((await storedRow(bob.id)).password_hash).toBe(LARAVEL);
    const failed = await t.db.models.AuditLog.findOne({
      where: { action: 'auth.loginFailed' },
      order: [['id', 'DESC']],
    });
    expect(failed?.context).toMatchObject({ email: bob.email });
    const unknown = await login('nobody-imported@example.com', 'Password');
    expect(withoutRequestId(wrong.body)).toEqual(withoutRequestId(unknown.body));
  });

  it('does not sign in an inactive imported user, nor replace the hash', async () => {
    const cid = await importedUser(LARAVEL);
    await t.db.models.User.update({ is_active: false }, { where: { id: cid.id } });
    expect((await login(cid.email, 'password')).statusCode).toBe(401);
    expect((await storedRow(cid.id)).password_hash).toBe(LARAVEL);
  });

  it('never overwrites a password changed between the check and the replacement', async () => {
    const dee = await importedUser(LARAVEL);
    const changedMeanwhile = (await storedRow((await given(t.db).user()).id)).password_hash;
    // Runs right before the replacement's UPDATE: another writer sets a new password first.
    // (In the replacement's own transaction: SQLite lets no other writer in while it is open,
    // and on MariaDB the effect is the same, a row changed before the UPDATE reads it.)
    const hook = async (options: { transaction?: Transaction | null }) => {
      t.db.models.User.removeHook('beforeBulkUpdate', 'concurrent-change');
      await t.db.models.User.update(
        { password_hash: changedMeanwhile },
        { where: { id: dee.id }, hooks: false, transaction: options.transaction ?? null },
      );
    };
    t.db.models.User.addHook('beforeBulkUpdate', 'concurrent-change', hook);
    try {
      expect((await login(dee.email, 'password')).statusCode).toBe(200);
    } finally {
      t.db.models.User.removeHook('beforeBulkUpdate', 'concurrent-change');
    }
    expect((await storedRow(dee.id)).password_hash).toBe(changedMeanwhile);
  });

  it('two sign-ins at once both succeed and leave one scrypt hash that verifies', async () => {
    const eve = await importedUser(LARAVEL);
    const answers = await Promise.all([login(eve.email, 'password'), login(eve.email, 'password')]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    const stored = (await storedRow(eve.id)).password_hash;
    expect(stored).toMatch(/^scrypt\$/);
    expect(await verifyPassword('password', stored)).toBe(true);
  });
});

describe('signing in with an imported argon2id hash', () => {
  it('signs in, is replaced by scrypt, signs in again; a wrong password changes nothing', async () => {
    const hash = await argon2id({
      password: ARGON_PASSWORD,
      salt: randomBytes(16),
      memorySize: 19_456,
      iterations: 2,
      parallelism: 1,
      hashLength: 32,
      outputType: 'encoded',
    });
    const fay = await importedUser(hash);

    expect((await login(fay.email, 'first-Secret-123')).statusCode).toBe(401);
    expect((await storedRow(fay.id)).password_hash).toBe(hash);

    expect((await login(fay.email, ARGON_PASSWORD)).statusCode).toBe(200);
    const replaced = (await storedRow(fay.id)).password_hash;
    expect(replaced).toMatch(/^scrypt\$/);
    expect((await login(fay.email, ARGON_PASSWORD)).statusCode).toBe(200);
    expect((await login(fay.email, 'first-Secret-123')).statusCode).toBe(401);
  });
});
