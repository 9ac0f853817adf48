/**
 * The `Idempotency-Key` request header (IETF draft-ietf-httpapi-idempotency-key-header): a key
 * the client picks for one request, so a retry of it is recognised. The draft makes it a
 * Structured Field string (`"8e03978e-40d5-43e8"`); bare keys are taken as well, as most clients
 * send them. Keys compare exactly (case and every character count).
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Visible ASCII and spaces, as a Structured Field string holds; the document's pattern for the header. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x20-\\x7E]+$';

const printable = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** The key a header value names, or why it is refused (a sentence for the sender). */
export function readIdempotencyKey(value: string): { key: string } | { refusal: string } {
  if (value.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    return {
      refusal: `The Idempotency-Key is ${value.length} characters long; at most ${IDEMPOTENCY_KEY_MAX_LENGTH} are taken.`,
    };
  }
  if (!printable.test(value)) {
    return { refusal: 'The Idempotency-Key may hold only visible ASCII characters and spaces.' };
  }
  const quoted = /^"(.*)"$/.exec(value);
  const key = (quoted ? (quoted[1] ?? '') : value).trim();
  return key === '' ? { refusal: 'The Idempotency-Key is empty.' } : { key };
}
