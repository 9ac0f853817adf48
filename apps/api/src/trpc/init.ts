import type { ErrorCode, Permission } from '@app/contracts';
import { initTRPC } from '@trpc/server';
import type { ZodType } from 'zod';
import type { Context } from '../context.js';
import { formatTrpcError } from './error-formatter.js';

/** REST door of a procedure: the bridge registers `method path` and calls the procedure. */
export interface RestMeta {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Status on success; 204 sends no body. */
  status?: number;
  summary?: string;
  /** Media types of a file answer (the export: CSV, XLSX, JSON); the OpenAPI document lists them instead of JSON. */
  produces?: string[];
  /** Refusals beyond those its guard, path and input imply (login: RATE_LIMITED), for the OpenAPI document. */
  problems?: ErrorCode[];
  /**
   * An answer that started background work instead of doing it: when the result has this key
   * (`job`), it is sent as 202 Accepted; `schema` is that answer's and `otherwise` the usual one
   * (the procedure's output is the union of the two), for the OpenAPI document.
   */
  accepted?: { key: string; schema: ZodType; otherwise: ZodType };
  /**
   * The body is a file of one of these media types (an import), streamed to the handler as
   * `ctx.upload`, unread; the input is the query string.
   */
  upload?: { mediaTypes: string[] };
  /**
   * A DELETE that takes a JSON body (disabling one's second factor proves it with a code): its
   * input is the body, as for POST, instead of the query string.
   */
  body?: boolean;
}

/** Whether a route's input comes from the query string (GET, DELETE without a body, an upload's options). */
export const inputInQuery = (rest: RestMeta): boolean =>
  rest.method === 'GET' || (rest.method === 'DELETE' && !rest.body) || rest.upload !== undefined;

export interface ProcedureMeta {
  rest?: RestMeta;
  /** Answers without a session (login, health, ready). Everything else needs one. */
  public?: boolean;
  /** Set by `protectedProcedure`: the caller must be signed in. */
  authenticated?: boolean;
  /** Set by `can(permission)`: the permission the caller must hold. */
  permission?: Permission;
  /**
   * Open to a session held at enrolment (a role requires a second factor the member has not set
   * up): who am I, sign out, and setting up the second factor.
   */
  duringEnrolment?: boolean;
  /** When the permission depends on the input (bulk): which field picks it, and the permission per value. */
  permissionOf?: { field: string; permissions: Readonly<Record<string, Permission>> };
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
