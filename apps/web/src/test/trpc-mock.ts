import { type AuthSession, type CapabilityMap, capabilityMap, type Permission, PERMISSIONS } from '@app/contracts';
import { delay, HttpResponse, http } from 'msw';
import { server } from './msw';

/** What one procedure answers: data, a contract error, or nothing ever (to hold a loading state). */
export type TrpcReply = { data: unknown } | { error: TrpcErrorBody } | 'pending';

export interface TrpcErrorBody {
  message: string;
  code: string;
  httpStatus: number;
  errors?: Record<string, string[]>;
  permission?: string;
  /** A refused attribute change's impact (409 ATTRIBUTE_CONFLICT). */
  impact?: { holders: number; failing: number };
}

export type TrpcResolver = (input: unknown) => TrpcReply | Promise<TrpcReply>;

export const ok = (data: unknown): TrpcReply => ({ data });

const NO_JOBS = { rows: [], meta: { page: 1, perPage: 10, total: 0, totalExact: true, pageCount: 0 } };
export const fail = (error: TrpcErrorBody): TrpcReply => ({ error });

const NO_ACCESS: TrpcResolver = (input) =>
  ok({ item: { id: (input as { id?: number } | undefined)?.id ?? 0, permissions: [] } });

export const UNAUTHENTICATED: TrpcErrorBody = {
  message: 'You need to sign in to do this.',
  code: 'UNAUTHENTICATED',
  httpStatus: 401,
};

export interface TrpcCall {
  path: string;
  input: unknown;
}

/**
 * Answers every tRPC call at the network layer, batched or not (`/api/trpc/a,b?batch=1`), from
 * one table of procedure → reply. A procedure missing from the table fails the test loudly.
 * `set` changes an answer mid-test; `calls` records what was asked, with inputs.
 */
export function mockTrpc(table: Record<string, TrpcResolver | TrpcReply>) {
  // The header asks for the caller's running jobs on every page: none, unless a test says so.
  // A user's page also asks where each permission comes from: nowhere known, unless a test says so.
  const resolvers = new Map<string, TrpcResolver | TrpcReply>(
    Object.entries({ 'jobs.list': ok(NO_JOBS), 'users.access': NO_ACCESS, ...table }),
  );
  const calls: TrpcCall[] = [];

  const answer = async (path: string, input: unknown) => {
    calls.push({ path, input });
    const entry = resolvers.get(path);
    if (entry === undefined) throw new Error(`mockTrpc: no answer for tRPC procedure "${path}"`);
    const reply = typeof entry === 'function' ? await entry(input) : entry;
    if (reply === 'pending') await delay('infinite');
    return reply;
  };

  const respond = async (paths: string[], inputs: Record<string, unknown>) => {
    const replies = await Promise.all(paths.map((path, index) => answer(path, inputs[String(index)])));
    const body = replies.map((reply) =>
      reply !== 'pending' && 'error' in reply
        ? {
            error: {
              message: reply.error.message,
              code: -32603,
              data: {
                code: reply.error.code,
                httpStatus: reply.error.httpStatus,
                ...(reply.error.errors ? { errors: reply.error.errors } : {}),
                ...(reply.error.permission ? { permission: reply.error.permission } : {}),
                ...(reply.error.impact ? { impact: reply.error.impact } : {}),
              },
            },
          }
        : { result: { data: reply === 'pending' ? null : reply.data } },
    );
    const statuses = replies.map((reply) => (reply !== 'pending' && 'error' in reply ? reply.error.httpStatus : 200));
    const status = statuses.every((s) => s === statuses[0]) ? (statuses[0] ?? 200) : 207;
    return HttpResponse.json(body, { status });
  };

  server.use(
    // The sign-in page asks which single sign-on providers to offer (a REST route): none by default.
    http.get('*/api/auth/providers/public', () => HttpResponse.json([])),
    http.get('*/api/trpc/:paths', async ({ request, params }) => {
      const raw = new URL(request.url).searchParams.get('input');
      return respond(String(params.paths).split(','), raw ? JSON.parse(raw) : {});
    }),
    http.post('*/api/trpc/:paths', async ({ request, params }) => {
      const text = await request.text();
      return respond(String(params.paths).split(','), text ? JSON.parse(text) : {});
    }),
  );

  return {
    calls,
    set: (path: string, entry: TrpcResolver | TrpcReply) => resolvers.set(path, entry),
    callsTo: (path: string) => calls.filter((call) => call.path === path).map((call) => call.input),
  };
}

/** A capability map granting exactly `granted` (or every permission with `'all'`). */
export function capabilities(granted: readonly Permission[] | 'all'): CapabilityMap {
  return capabilityMap(granted === 'all' ? PERMISSIONS : granted);
}

/** An `auth.me` / `auth.login` answer. */
export function sessionOf(
  granted: readonly Permission[] | 'all',
  user: Partial<AuthSession['user']> = {},
): AuthSession {
  return {
    user: { id: 1, name: 'Ada Admin', email: 'admin@example.com', ...user },
    can: capabilities(granted),
    two_factor: { enrolled: false, required: false },
  };
}
