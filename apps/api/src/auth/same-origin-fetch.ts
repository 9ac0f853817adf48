import type { FastifyRequest } from 'fastify';

/** `Sec-Fetch-Site` of a request from the application's own pages, or from the user's own address bar or bookmark. */
const FROM_THE_APP = new Set(['same-origin', 'none']);

function originIsHost(origin: string, host: string): boolean {
  try {
    // As `crossSiteRefusal` compares: through URL so a default port written out (`:80`) equals
    // none, with the scheme taken from Origin (TLS may end at a proxy in front of this process).
    const from = new URL(origin);
    return from.host === new URL(`${from.protocol}//${host}`).host;
  } catch {
    return false;
  }
}

/**
 * Whether the browser vouches that this request was made by the application's own pages:
 * `Sec-Fetch-Site: same-origin` or `none`, or an `Origin` naming this host (and neither header
 * saying otherwise). A page on another site cannot forge these headers, but it can start a
 * top-level GET navigation, and the Lax session cookie goes along: this tells the two apart.
 * A request with neither header (an old browser, a script holding a cookie) is not vouched for.
 */
export function isSameOriginFetch(req: Pick<FastifyRequest, 'headers' | 'host'>): boolean {
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  if (site !== undefined && !(typeof site === 'string' && FROM_THE_APP.has(site))) return false;
  if (origin !== undefined) return originIsHost(origin, req.host);
  return site !== undefined;
}
