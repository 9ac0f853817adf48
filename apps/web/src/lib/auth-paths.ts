import type { CapabilityMap } from '@app/contracts';

export const LOGIN_PATH = '/login';
export const ACCOUNT_PATH = '/account';
/** Where a person whose role requires a second factor, and who has none, is held. */
export const TWO_FACTOR_PATH = '/account/two-factor';

/** Where a signed-in user starts: the users list when they may see it, else what they may do. */
export function homePathFor(can: CapabilityMap): string {
  return can['users.view'] ? '/users' : ACCOUNT_PATH;
}

/** The login page, remembering where to come back to (nothing for the start page). */
export function loginPathFor(location: { pathname: string; search: string; hash?: string }): string {
  const here = `${location.pathname}${location.search}${location.hash ?? ''}`;
  if (location.pathname === '/' || location.pathname === LOGIN_PATH) return LOGIN_PATH;
  return `${LOGIN_PATH}?next=${encodeURIComponent(here)}`;
}

/**
 * `next` as a path on this origin, or null. Only same-origin relative paths are followed, so a
 * crafted link (`?next=//evil.example`, `?next=https://…`, `/\evil`) cannot send a freshly
 * signed-in administrator elsewhere.
 */
export function safeNextPath(raw: string | null | undefined, origin = window.location.origin): string | null {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  try {
    const url = new URL(raw, origin);
    if (url.origin !== origin || url.pathname === LOGIN_PATH) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}
