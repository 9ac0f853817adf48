import { AppError } from '../../errors.js';
import { refusedHost } from '../../webhooks/ssrf.js';

/**
 * An endpoint URL the server will not call: a loopback, private or otherwise non-public
 * address written as such, or `localhost` — unless WEBHOOKS_ALLOW_PRIVATE=true. A name that
 * resolves to such an address is refused when it is resolved, at each delivery.
 */
export function assertDeliverableUrl(url: string, allowPrivate: boolean): void {
  if (allowPrivate) return;
  const refused = refusedHost(url);
  if (refused) throw new AppError('VALIDATION_FAILED', refused, { errors: { url: [refused] } });
}
