import http from 'node:http';
import https from 'node:https';
import { guardedLookup } from './ssrf.js';

/**
 * Kept-alive connections for the dispatcher, one agent per endpoint origin. A delivery used to
 * open a connection (and for https a TLS handshake) per attempt; a burst of 10 001 events to one
 * endpoint now reuses a few sockets.
 *
 * The SSRF guard still holds for every connection: each agent resolves through `guardedLookup`,
 * and Node calls the lookup whenever the agent opens a socket. A pooled socket was opened under
 * that guard and stays connected to the address the guard let through; reusing it sends nothing
 * anywhere else, and a name that later resolves to a private address (DNS rebinding) is refused
 * when the next socket is opened. `allowPrivate` is part of an agent's key, so a socket opened
 * while private addresses were allowed is never lent to a caller that refuses them.
 */
export interface AgentPool {
  /** The agent for this URL's origin, made on first use. */
  agentFor(url: URL, allowPrivate: boolean): http.Agent;
  /** Destroys every agent and closes its sockets: the dispatcher stops with none left open. */
  close(): void;
  /** How many agents are kept (for tests and the log). */
  readonly size: number;
}

export interface AgentPoolOptions {
  /** Sockets per origin: the dispatcher's concurrency, so an attempt never queues behind the agent. */
  maxSockets: number;
  /**
   * How long an idle socket is kept. Below the 5 s a Node server keeps an idle connection (and
   * most servers' defaults), so the pool drops a socket before the endpoint does. A shorter
   * `Keep-Alive: timeout=` from the endpoint wins (Node takes a second off it).
   */
  freeSocketMs?: number;
  /** An agent that has not been used for this long, with no request under way, is destroyed. */
  unusedAgentMs?: number;
  /** For tests: the clock. */
  now?: () => number;
}

export const FREE_SOCKET_MS = 4_000;
export const UNUSED_AGENT_MS = 60_000;

interface Entry {
  agent: http.Agent;
  lastUsed: number;
}

const busy = (agent: http.Agent) =>
  Object.values(agent.sockets).some((list) => list?.length) ||
  Object.values(agent.requests).some((list) => list?.length);

export function createAgentPool({
  maxSockets,
  freeSocketMs = FREE_SOCKET_MS,
  unusedAgentMs = UNUSED_AGENT_MS,
  now = Date.now,
}: AgentPoolOptions): AgentPool {
  const agents = new Map<string, Entry>();
  let lastSweep = now();

  // Endpoints come and go (edited, deleted, switched off): their agents are dropped when a
  // later delivery finds them unused, so the pool holds only the endpoints being delivered to.
  const sweep = (at: number) => {
    if (at - lastSweep < unusedAgentMs / 4) return;
    lastSweep = at;
    for (const [key, entry] of agents) {
      if (at - entry.lastUsed >= unusedAgentMs && !busy(entry.agent)) {
        entry.agent.destroy();
        agents.delete(key);
      }
    }
  };

  return {
    agentFor(url, allowPrivate) {
      const at = now();
      sweep(at);
      const key = `${allowPrivate ? 'private-allowed' : 'public-only'} ${url.protocol}//${url.host}`;
      let entry = agents.get(key);
      if (!entry) {
        const options: http.AgentOptions = {
          keepAlive: true,
          maxSockets,
          maxFreeSockets: maxSockets,
          // The most recently used socket first: after a burst the surplus sits idle and times out.
          scheduling: 'lifo',
          // An idle (free) socket is closed after this; a socket in use is governed by the
          // attempt's own deadline (deliver.ts), which outlives a timeout event the agent ignores.
          timeout: freeSocketMs,
        };
        const lookup = guardedLookup(allowPrivate);
        // `lookup` in the agent's options overrides the request's: every socket this agent opens is guarded.
        const agent =
          url.protocol === 'https:' ? new https.Agent({ ...options, lookup }) : new http.Agent({ ...options, lookup });
        entry = { agent, lastUsed: at };
        agents.set(key, entry);
      }
      entry.lastUsed = at;
      return entry.agent;
    },
    close() {
      for (const { agent } of agents.values()) agent.destroy();
      agents.clear();
    },
    get size() {
      return agents.size;
    },
  };
}
