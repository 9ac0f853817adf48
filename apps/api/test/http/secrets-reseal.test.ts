import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { writeTransaction } from '../../src/db/transaction.js';
import { enqueueMail } from '../../src/mail/outbox.js';
import { mailSettings } from '../../src/mail/settings.js';
import { keyId, openSecret, sealSecret, secretKeys } from '../../src/webhooks/secret-box.js';
import { loadConfig } from '../../src/config.js';
import { given } from '../support/given.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * `secrets:reseal` after a SECRETS_KEY change: the providers' client secrets, the users' TOTP
 * secrets and waiting mail — sealed by the previous key or stored before there was one — come
 * out sealed with the new key, holding what they held, so the previous key can be dropped without
 * locking out everyone with a second factor or breaking single sign-on.
 */

const KEY = randomBytes(32);
const OLD_KEY = randomBytes(32);
const old = secretKeys(OLD_KEY);
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ SECRETS_KEY: KEY.toString('base64') });
});
afterAll(() => t.close());

const values = async (table: string, column: string, ids: number[]) =>
  (
    await t.db.sequelize.query<{ id: number | string; value: string }>(
      `SELECT id, ${column} AS value FROM ${table} WHERE id IN (:ids) ORDER BY id`,
      { replacements: { ids }, type: QueryTypes.SELECT },
    )
  ).map((r) => r.value);

describe('secrets:reseal', () => {
  it('seals SSO client secrets, TOTP secrets and waiting mail with the current key, and fails while one does not open', async () => {
    const now = new Date();
    // A provider whose secret the previous key sealed.
    const [providerId] = (await t.db.sequelize.query(
      `INSERT INTO auth_providers (name, issuer, metadata, client_id, client_secret, allowed_domains, create_users, default_roles, created_at, updated_at)
       VALUES ('Staff', 'https://id.example.com', '{}', 'client', :secret, '[]', 0, '[]', :now, :now)`,
      { replacements: { secret: sealSecret('provider-secret-value', old), now }, type: QueryTypes.INSERT },
    )) as unknown as [number];
    // Two enrolled users: one sealed by the previous key, one stored before any key was set.
    const g = given(t.db);
    const sealedUser = await g.user();
    const plainUser = await g.user();
    await t.db.sequelize.query('UPDATE users SET two_factor_secret = :s WHERE id = :id', {
      replacements: { s: sealSecret('JBSWY3DPEHPK3PXP', old), id: sealedUser.id },
    });
    await t.db.sequelize.query('UPDATE users SET two_factor_secret = :s WHERE id = :id', {
      replacements: { s: 'KRSXG5CTMVRXEZLU', id: plainUser.id },
    });
    // A mail still waiting, queued under the previous key.
    const mailConfig = loadConfig({
      ...t.target.env,
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_FROM: 'no-reply@example.com',
      PUBLIC_URL: 'https://admin.example.com',
      SECRETS_KEY: OLD_KEY.toString('base64'),
    });
    const vars = { name: 'Ann', url: 'https://admin.example.com/invite/tok', expires_at: '2026-12-01T00:00:00.000Z' };
    await writeTransaction(t.db, (tx) =>
      enqueueMail(t.db, tx, mailSettings(mailConfig), { to: 'ann@example.com', template: 'invitation', vars }),
    );
    const [mail] = await t.db.sequelize.query<{ id: number }>('SELECT id FROM mail_outbox ORDER BY id DESC LIMIT 1', {
      type: QueryTypes.SELECT,
    });
    const mailId = Number(mail?.id);

    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    const env = { ...t.target.env, LOG_LEVEL: 'silent', SECRETS_KEY: KEY.toString('base64') };

    // Without the previous key: what it sealed stays as it was, named, and the command fails.
    expect(await runCli(['secrets:reseal'], env, io)).toBe(1);
    expect(out.join('\n')).toContain(`1 single sign-on client secret(s) (provider ids ${providerId})`);
    expect(out.join('\n')).toContain('1 two-factor secret(s)');
    expect(out.join('\n')).toContain('1 waiting mail message(s)');
    const current = `v1.${keyId(KEY)}.`;
    const [plainNow] = await values('users', 'two_factor_secret', [plainUser.id]);
    expect(plainNow?.startsWith(current)).toBe(true);

    out.length = 0;
    expect(await runCli(['secrets:reseal'], { ...env, SECRETS_KEY_PREVIOUS: OLD_KEY.toString('base64') }, io)).toBe(0);
    expect(out).toContain(`Sealed 1 single sign-on client secret(s) with key ${keyId(KEY)}; 0 already were.`);
    expect(out).toContain(`Sealed 1 two-factor secret(s) with key ${keyId(KEY)}; 1 already were.`);
    expect(out).toContain(`Sealed 1 waiting mail message(s) with key ${keyId(KEY)}; 0 already were.`);

    // The new key alone opens each, to what it held.
    const now_ = secretKeys(KEY);
    const [provider] = await values('auth_providers', 'client_secret', [providerId]);
    expect(openSecret(provider as string, now_)).toBe('provider-secret-value');
    const totp = await values('users', 'two_factor_secret', [sealedUser.id, plainUser.id]);
    expect(totp.map((v) => openSecret(v, now_))).toEqual(['JBSWY3DPEHPK3PXP', 'KRSXG5CTMVRXEZLU']);
    const [payload] = await values('mail_outbox', 'payload', [mailId]);
    expect(JSON.parse(openSecret(payload as string, now_))).toEqual(vars);

    // Each run is in the audit trail with the key and the counts, never a value.
    const rows = await t.db.models.AuditLog.findAll({ where: { action: 'secrets.reseal' }, order: [['id', 'ASC']] });
    expect(rows).toHaveLength(2);
    const context = typeof rows[1]?.context === 'string' ? JSON.parse(rows[1].context) : rows[1]?.context;
    expect(context).toMatchObject({
      source: 'cli',
      key: keyId(KEY),
      providers: { resealed: 1, unopened: 0 },
      two_factor: { resealed: 1, alreadyCurrent: 1, unopened: 0 },
      mail: { resealed: 1, unopened: 0 },
    });
    const trail = JSON.stringify(rows.map((r) => r.toJSON()));
    for (const secret of ['provider-secret-value', 'JBSWY3DPEHPK3PXP', 'KRSXG5CTMVRXEZLU', '/invite/tok']) {
      expect(trail).not.toContain(secret);
    }

    expect(await runCli(['secrets:reseal'], { ...t.target.env, LOG_LEVEL: 'silent' }, io)).toBe(1);
    expect(out.at(-1)).toContain('SECRETS_KEY is not set');
  });
});
