/** Deterministic demo data: the same N users on every machine, so screenshots and tests agree. */

const FIRST = [
  'Ada',
  'Alan',
  'Grace',
  'Linus',
  'Margaret',
  'Dennis',
  'Barbara',
  'Ken',
  'Radia',
  'Tim',
  'Frances',
  'Edsger',
  'Katherine',
  'Donald',
  'Hedy',
  'John',
  'Sophie',
  'Niklaus',
  'Annie',
  'Guido',
  'Zoë',
  'José',
  'Björn',
  'Chloé',
  'Mateo',
  'Priya',
  'Wei',
  'Aiko',
  'Olusegun',
  'Fatima',
  'Lars',
  'Ingrid',
  'Diego',
  'Amara',
  'Noah',
  'Léa',
  'Hiroshi',
  'Maya',
  'Omar',
  'Elena',
] as const;

const LAST = [
  'Lovelace',
  'Turing',
  'Hopper',
  'Torvalds',
  'Hamilton',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Perlman',
  'Berners-Lee',
  'Allen',
  'Dijkstra',
  'Johnson',
  'Knuth',
  'Lamarr',
  'Backus',
  'Wilson',
  'Wirth',
  'Easley',
  'van Rossum',
  "O'Brien",
  'García',
  'Müller',
  'Nakamura',
  'Okafor',
  'Haddad',
  'Lindqvist',
  'Novak',
  'Rossi',
  'Kowalski',
  'Dubois',
  'Silva',
  'Chen',
  'Patel',
  'Kim',
  'Andersen',
  'Moreau',
  'Costa',
  'Ivanova',
  'Schmidt',
] as const;

/** mulberry32: tiny, fast, deterministic PRNG. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-zA-Z]/g, '')
    .toLowerCase();

export interface DemoUser {
  name: string;
  email: string;
  is_active: boolean;
  created_at: Date;
  deleted_at: Date | null;
  roles: Array<'admin' | 'manager' | 'viewer'>;
}

// A fixed anchor keeps the data identical whatever day it is generated.
const ANCHOR = Date.UTC(2026, 9, 31, 12, 0, 0);
const THREE_YEARS_MS = 3 * 365 * 24 * 3600 * 1000;

/** The i-th demo user (0-based). Pure: index i always yields the same user. */
export function demoUser(i: number): DemoUser {
  const rand = prng(i * 7919 + 17);
  const first = FIRST[Math.floor(rand() * FIRST.length)] as string;
  const last = LAST[Math.floor(rand() * LAST.length)] as string;
  const roll = rand();
  const roles: DemoUser['roles'] =
    roll < 0.04
      ? ['admin']
      : roll < 0.24
        ? ['manager']
        : roll < 0.3
          ? ['manager', 'viewer']
          : roll < 0.75
            ? ['viewer']
            : [];
  const is_active = rand() >= 0.18;
  // Only inactive users can be deleted (rule 3), so the trash holds inactive users only.
  const deleted = !is_active && rand() < 0.25;
  const created_at = new Date(ANCHOR - Math.floor(rand() * THREE_YEARS_MS));
  const deleted_at = deleted
    ? new Date(Math.min(ANCHOR, created_at.getTime() + Math.floor(rand() * 90) * 86_400_000))
    : null;
  return {
    name: `${first} ${last}`,
    email: `${ascii(first)}.${ascii(last)}.${i + 1}@example.com`,
    is_active,
    created_at,
    deleted_at,
    roles,
  };
}
