/**
 * Absolute URL of an API path on the page's own origin. The browser would accept a relative
 * URL, but fetch outside a browser (tests under jsdom + MSW) needs an absolute one.
 */
export function apiUrl(path: string): string {
  return new URL(path, window.location.origin).href;
}
