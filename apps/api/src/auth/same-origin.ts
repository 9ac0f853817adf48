import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Why a state-changing request must be refused as cross-site, or null. Browsers send
 * `Sec-Fetch-Site` and `Origin` on such requests; a page on another site cannot forge them.
 * Requests carrying a bearer token are exempt: a browser never attaches one by itself, so
 * there is no ambient credential to abuse.
 */
export function crossSiteRefusal(req: FastifyRequest): string | null {
  if (SAFE_METHODS.has(req.method)) return null;
  if (req.headers.authorization !== undefined) return null;
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return `Sec-Fetch-Site: ${site}`;
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  try {
    // Hosts compared through URL so a default port written out (`:80`) equals none. The scheme
    // is taken from Origin: behind a TLS-terminating proxy this process may only see http.
    const from = new URL(origin);
    if (from.host !== new URL(`${from.protocol}//${req.host}`).host) return `Origin: ${origin}`;
  } catch {
    return `Origin: ${origin}`;
  }
  return null;
}

/**
 * Checks every request, wherever it is addressed. A test on the URL can be spelled around
 * (`/%61pi/…` reaches the `/api/…` routes), and there is nothing to leave out: the only routes
 * outside the API are the SPA's static files, which take GET and HEAD, and those pass anyway.
 */
export function registerSameOriginCheck(app: FastifyInstance) {
  app.addHook('onRequest', async (req) => {
    const refusal = crossSiteRefusal(req);
    if (refusal) {
      req.log.warn({ refusal }, 'cross-site request refused');
      throw new AppError(
        'FORBIDDEN',
        'Cross-site requests are not accepted. Use the application from its own address.',
      );
    }
  });
}
