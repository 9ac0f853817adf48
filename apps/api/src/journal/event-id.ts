import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_DIGITS = 16;

let lastTime = -1;
let lastRandom: number[] = [];

function freshRandom(): number[] {
  // 80 random bits as sixteen 5-bit digits.
  const bytes = randomBytes(10);
  const digits: number[] = [];
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      digits.push((value >> bits) & 31);
    }
  }
  return digits;
}

/** ULID's first ten digits: milliseconds since 1970, big-endian base 32, so ids sort by time. */
function timeDigits(time: number): string {
  let stamp = '';
  for (let i = 0, rest = time; i < 10; i++, rest = Math.floor(rest / 32)) stamp = CROCKFORD[rest % 32] + stamp;
  return stamp;
}

/** The random part plus one, as a base-32 counter; null when it would overflow. */
function increment(digits: number[]): number[] | null {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    if ((next[i] as number) < 31) {
      next[i] = (next[i] as number) + 1;
      return next;
    }
    next[i] = 0;
  }
  return null;
}

/**
 * A Standard Webhooks message id: `msg_` and a ULID (48 bits of milliseconds, 80 random bits,
 * Crockford base32), 30 characters in all. Within one millisecond the random part counts up
 * (ULID's monotonic mode), so the events of one bulk sort in the order they were written, and
 * a receiver's log and ours line up.
 */
export function newEventId(now = Date.now()): string {
  let time = now;
  let random: number[] | null;
  if (time <= lastTime) {
    time = lastTime;
    random = increment(lastRandom);
    if (!random) {
      time += 1;
      random = freshRandom();
    }
  } else {
    random = freshRandom();
  }
  lastTime = time;
  lastRandom = random;
  return `msg_${timeDigits(time)}${random
    .slice(0, RANDOM_DIGITS)
    .map((d) => CROCKFORD[d])
    .join('')}`;
}

/** Below every event id made at `time` or later, above every one made before it. */
export function eventIdFloor(time: number): string {
  return `msg_${timeDigits(time)}${'0'.repeat(RANDOM_DIGITS)}`;
}
