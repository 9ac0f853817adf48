import type { Permission } from '@app/contracts';
import { initTRPC } from '@trpc/server';
import type { Context } from './context.js';
import { formatTrpcError } from './error-formatter.js';

/** REST door of a procedure: the bridge registers `method path` and calls the procedure. */
export interface RestMeta {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Status on success; 204 sends no body. */
  status?: number;
  summary?: string;
}

export interface ProcedureMeta {
  rest?: RestMeta;
  /** Answers without a session (login, health, ready). Everything else needs one. */
  public?: boolean;
  /** Set by `protectedProcedure`: the caller must be signed in. */
  authenticated?: boolean;
  /** Set by `can(permission)`: the permission the caller must hold. */
  permission?: Permission;
}

const t = initTRPC.context<Context>().meta<ProcedureMeta>().create({ errorFormatter: formatTrpcError });

export const router = t.router;
export const middleware = t.middleware;
/** Only for procedures marked `public: true`; everything else starts from `protectedProcedure` or `can()`. */
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;

export const rest = (method: RestMeta['method'], path: string, extra: Partial<RestMeta> = {}): ProcedureMeta => ({
  rest: { method, path, ...extra },
});
