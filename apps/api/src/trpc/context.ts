import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';

/** The authenticated caller, resolved fresh from the database on every request. */
export interface Actor {
  id: number;
  name: string;
  email: string;
  permissions: ReadonlySet<string>;
}

export interface Context {
  db: Database;
  config: AppConfig;
  log: FastifyBaseLogger;
  requestId: string;
  ip: string;
  actor: Actor | null;
}

/** Pure: tests build contexts directly with the actor they need. */
export function createContextInner(ctx: Context): Context {
  return ctx;
}
