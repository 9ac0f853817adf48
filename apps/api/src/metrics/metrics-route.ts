import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { problem, sendProblem } from '../rest/problem.js';
import type { Metrics } from './metrics.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
function bearerMatches(req: FastifyRequest, token: string): boolean {
  const header = req.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice('Bearer '.length).trim()), digest(token));
}

/**
 * Observes every answer, and serves `GET /api/metrics` in Prometheus' text format to a scraper
 * holding `METRICS_TOKEN`. Without a token configured the route does not exist (404): metrics
 * name routes and load, which is not for anyone who can reach the API.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined) {
  app.addHook('onResponse', async (req, reply) => {
    metrics.observe(req, reply.statusCode, reply.elapsedTime / 1000);
  });
  if (!token) return;
  app.get('/api/metrics', async (req, reply) => {
    if (!bearerMatches(req, token)) {
      return sendProblem(
        reply,
        problem('UNAUTHENTICATED', 'Send the metrics token as a bearer token.', undefined, String(req.id)),
        { 'www-authenticate': 'Bearer realm="metrics"' },
      );
    }
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
}
