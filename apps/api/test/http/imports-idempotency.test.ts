import { PassThrough } from 'node:stream';
import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { jobsBed } from '../support/jobs-bed.js';

/**
 * `Idempotency-Key` on POST /users/imports, as the IETF draft has it: a retry with the same
 * file and options answers the first job; the same key with another payload is 422; a second
 * request while the first is still being read is 409; a key is never cut short.
 */
const bed = jobsBed();

let counter = 0;
const fresh = () => `idem${++counter}x${process.pid}`;
const csv = (word: string, n = 1) =>
  `name,email\r\n${Array.from({ length: n }, (_, i) => `P${i} ${word},p${i}.${word}@example.com`).join('\r\n')}\r\n`;

function upload(body: string | PassThrough, key: string, query = 'dryRun=true') {
  return bed.t.app.inject({
    method: 'POST',
    url: `/api/users/imports?${query}`,
    headers: { authorization: `Bearer ${bed.adminToken}`, 'content-type': 'text/csv', 'idempotency-key': key },
    payload: body,
  });
}

async function jobCount(): Promise<number> {
  const [row] = await bed.t.db.sequelize.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM jobs', {
    type: QueryTypes.SELECT,
  });
  return Number(row?.n);
}

describe('Idempotency-Key on an import', () => {
  it('answers the first job for a retry with the same file and options, whichever order the options came in', async () => {
    const w = fresh();
    const first = await upload(csv(w), `k-${w}`, 'dryRun=true&mode=create&activate=true');
    expect(first.statusCode, first.body).toBe(202);
    const again = await upload(csv(w), `k-${w}`, 'activate=true&mode=create&dryRun=true');
    expect(again.statusCode).toBe(202);
    expect(again.json().job.id).toBe(first.json().job.id);
  });

  it('refuses with 422 a key reused with another file, or the same file with other options', async () => {
    const w = fresh();
    const key = `k-${w}`;
    const first = await upload(csv(w), key);
    expect(first.statusCode).toBe(202);
    const before = await jobCount();
    const otherFile = await upload(csv(`${w}b`), key);
    expect(otherFile.statusCode).toBe(422);
    expect(otherFile.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', status: 422 });
    expect(otherFile.json().detail).toContain(`job ${first.json().job.id}`);
    // A dry run's key does not answer for the real run.
    const realRun = await upload(csv(w), key, 'dryRun=false');
    expect(realRun.statusCode).toBe(422);
    expect(realRun.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await jobCount()).toBe(before);
  });

  it('refuses a key past 255 characters with 400 instead of answering for its first 255', async () => {
    const w = fresh();
    const stem = `${w}-`.padEnd(255, 'k');
    const exact = await upload(csv(w), stem);
    expect(exact.statusCode).toBe(202);
    for (const tail of ['a', 'b']) {
      const long = await upload(csv(`${w}${tail}`), `${stem}${tail}`);
      expect(long.statusCode).toBe(400);
      expect(long.json()).toMatchObject({ code: 'BAD_REQUEST' });
      expect(long.json().detail).toContain('at most 255');
    }
    const control = await upload(csv(w), 'bad\u0001key');
    expect(control.statusCode).toBe(400);
  });

  it('tells keys apart by case and by every character', async () => {
    const w = fresh();
    const lower = await upload(csv(w), `case-${w}`);
    const upper = await upload(csv(`${w}u`), `CASE-${w}`.toUpperCase());
    expect(lower.statusCode).toBe(202);
    expect(upper.statusCode).toBe(202);
    expect(upper.json().job.id).not.toBe(lower.json().job.id);
    // A Structured Field string names the same key as the bare one.
    const quoted = await upload(csv(w), `"case-${w}"`);
    expect(quoted.json().job.id).toBe(lower.json().job.id);
  });

  it('answers 409 while the first request with the key is still being read, then the first job', async () => {
    const w = fresh();
    const key = `slow-${w}`;
    const body = csv(w, 200);
    const slow = new PassThrough();
    const first = upload(slow, key);
    slow.write(body.slice(0, 100));
    // The first request has claimed the key once its body is being read.
    for (let i = 0; i < 100 && (await claims(key)) === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await claims(key)).toBe(1);
    const meanwhile = await upload(body, key);
    expect(meanwhile.statusCode).toBe(409);
    expect(meanwhile.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE', status: 409 });
    slow.end(body.slice(100));
    const answered = await first;
    expect(answered.statusCode, answered.body).toBe(202);
    expect(await claims(key)).toBe(0);
    const retry = await upload(body, key);
    expect(retry.statusCode).toBe(202);
    expect(retry.json().job.id).toBe(answered.json().job.id);
  });

  it('frees the key of a request that failed, so the corrected file may use it', async () => {
    const w = fresh();
    const key = `fix-${w}`;
    const refused = await upload('', key);
    expect(refused.statusCode).toBe(422);
    expect(await claims(key)).toBe(0);
    const fixed = await upload(csv(w), key);
    expect(fixed.statusCode).toBe(202);
  });
});

async function claims(key: string): Promise<number> {
  const [row] = await bed.t.db.sequelize.query<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM idempotency_claims WHERE idempotency_key = :key',
    { replacements: { key }, type: QueryTypes.SELECT },
  );
  return Number(row?.n);
}
