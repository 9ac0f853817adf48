import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_MAX_LENGTH, readIdempotencyKey } from './idempotency-key';

describe('reading an Idempotency-Key', () => {
  it('takes a bare key or a Structured Field string, exactly as sent', () => {
    expect(readIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toEqual({
      key: '8e03978e-40d5-43e8-bc93-6894a57f9324',
    });
    expect(readIdempotencyKey('"Abc-1"')).toEqual({ key: 'Abc-1' });
    expect(readIdempotencyKey('abc')).not.toEqual(readIdempotencyKey('ABC'));
  });

  it('refuses a key past 255 characters instead of cutting it', () => {
    expect(readIdempotencyKey('k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH))).toEqual({ key: 'k'.repeat(255) });
    expect(readIdempotencyKey('k'.repeat(256))).toEqual({ refusal: expect.stringContaining('at most 255') });
  });

  it('refuses control characters, characters past ASCII and an empty key', () => {
    expect(readIdempotencyKey('a\tb')).toHaveProperty('refusal');
    expect(readIdempotencyKey('clé')).toHaveProperty('refusal');
    expect(readIdempotencyKey('""')).toEqual({ refusal: 'The Idempotency-Key is empty.' });
  });
});
