/**
 * How long an instance keeps an idle client connection open, in seconds. Its answers say so
 * (`Keep-Alive: timeout=72`, Fastify's default made explicit), and clients keep the connection
 * that long: a balancer in front must keep its own client side open longer (the bed's HAProxy,
 * docs/operations.md), or a request sent just as it closes is lost.
 */
export const KEEP_ALIVE_SECONDS = 72;
