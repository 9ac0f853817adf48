import { describe, expect, it } from 'vitest';
import { diff } from '../../src/journal/journal.js';

describe('audit diff', () => {
  it('keeps only changed fields, before and after', () => {
    expect(
      diff({ name: 'A', email: 'a@x.io', is_active: true }, { name: 'B', email: 'a@x.io', is_active: false }),
    ).toEqual({
      name: { before: 'A', after: 'B' },
      is_active: { before: true, after: false },
    });
  });

  it('never records passwords or hashes', () => {
    const changes = diff({ password_hash: 'old' }, { password_hash: 'new', password: 'secret', name: 'x' });
    expect(JSON.stringify(changes)).not.toMatch(/old|new|secret/);
    expect(changes).toEqual({ name: { before: null, after: 'x' } });
  });

  it('compares dates by instant', () => {
    expect(diff({ at: new Date(1000) }, { at: new Date(1000) })).toEqual({});
  });
});
