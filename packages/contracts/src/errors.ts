import { z } from 'zod';
import { IMPORT_RULE_CODES, ImportFilePreviewSchema, type ImportFilePreview } from './imports/imports';

export const ERRORS = {
  BAD_REQUEST: { status: 400, title: 'The request could not be read.' },
  UNAUTHENTICATED: { status: 401, title: 'You need to sign in to do this.' },
  FORBIDDEN: { status: 403, title: 'You do not have permission to do this.' },
  OUTRANKED: {
    status: 403,
    title: 'This user holds permissions you do not have, so you cannot change their account.',
  },
  NOT_FOUND: { status: 404, title: 'The record was not found.' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'This address does not accept that HTTP method.' },
  VERSION_CONFLICT: {
    status: 409,
    title: 'Someone else changed this record. Reload it and try again.',
  },
  ROLE_IN_USE: {
    status: 409,
    title: 'This role has members. Delete it with detach=true to take it from them.',
  },
  JOB_FINISHED: { status: 409, title: 'The job has already finished.' },
  ATTRIBUTE_CONFLICT: {
    status: 409,
    title: 'This change would break values users hold. Send onConflict: "clear" to clear those values.',
  },
  ATTRIBUTE_BUSY: {
    status: 409,
    title: 'This attribute is being changed by another administrator. Try again when that change is done.',
  },
  NOT_UNDOABLE: { status: 409, title: 'This job cannot be undone.' },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    title: 'A request with this Idempotency-Key is still being taken in. Retry once it has been answered.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Send the request body as application/json.' },
  VALIDATION_FAILED: { status: 422, title: 'Some of the input is not valid.' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    title: 'This Idempotency-Key was first sent with a different request. Use a new key for a new request.',
  },
  RELATION_NOT_ALLOWED: { status: 422, title: 'A requested relation cannot be loaded.' },
  COUNT_NOT_ALLOWED: { status: 422, title: 'A requested count cannot be loaded.' },
  APPEND_NOT_ALLOWED: { status: 422, title: 'A requested field cannot be appended.' },
  SELF_DEACTIVATION: { status: 422, title: 'You cannot deactivate your own account.' },
  LAST_ADMIN: {
    status: 422,
    title: 'This would leave no active administrator. Make another user an administrator first.',
  },
  NOT_INACTIVE: { status: 422, title: 'Only an inactive user can be deleted. Deactivate it first.' },
  SELF_DELETE: { status: 422, title: 'You cannot delete your own account.' },
  NOT_DELETED: { status: 422, title: 'The user is not deleted.' },
  NOT_ACTIVE: { status: 422, title: 'The user is not active. Activate the account first.' },
  ALREADY_SIGNED_IN: {
    status: 422,
    title: 'This user has already signed in: they need no invitation. Send a password reset instead.',
  },
  INVALID_TOKEN: {
    status: 422,
    title: 'This link is not valid: it was used already, has expired or was replaced by a newer one.',
  },
  ROLE_PROTECTED: {
    status: 422,
    title: 'The administrator role always holds every permission; it cannot be renamed or deleted.',
  },
  TWO_FACTOR_ENROLMENT_REQUIRED: {
    status: 403,
    title: 'One of your roles requires two-factor sign-in. Set up an authenticator app to continue.',
  },
  TWO_FACTOR_ENROLLED: {
    status: 409,
    title: 'Two-factor sign-in is already on. Turn it off first to set up another app.',
  },
  TWO_FACTOR_NOT_ENROLLED: { status: 409, title: 'Two-factor sign-in is not on for this account.' },
  TWO_FACTOR_NOT_PENDING: {
    status: 409,
    title: 'There is no two-factor set-up waiting for a code. Start the set-up again.',
  },
  TWO_FACTOR_CHALLENGE_EXPIRED: {
    status: 401,
    title: 'This sign-in has expired. Enter your e-mail and password again.',
  },
  RATE_LIMITED: { status: 429, title: 'Too many requests. Wait a moment and try again.' },
  INTERNAL: { status: 500, title: 'Something went wrong on our side. Try again later.' },
  UNAVAILABLE: {
    status: 503,
    title: 'The service is temporarily unavailable. Try again in a moment.',
  },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERRORS;
// An import's rule codes are the API's own. Checked here: imports.ts cannot import this file, which imports it.
IMPORT_RULE_CODES satisfies readonly ErrorCode[];

export const ERROR_CODES = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

export const ErrorCodeSchema = z.enum(ERROR_CODES);

/** Input path joined with '.' (`filters.created_between.from`, `with.0`) → messages. */
export type FieldErrors = Record<string, string[]>;

/**
 * Where an error about the input as a whole (not one field) is filed in {@link FieldErrors}.
 * An empty key cannot clash with a field name and reads as "the form itself" in the SPA.
 */
export const ROOT_ERROR_KEY = '';

export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  code: ErrorCodeSchema,
  detail: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  // RFC 9457 extension members: a 403 names the permission that was missing, a 413 the limit
  // (in bytes) the body went past.
  permission: z.string().optional(),
  limit: z.number().int().positive().optional(),
  // A refused import file: how it was read (its columns), so the sender can map them and retry.
  file: ImportFilePreviewSchema.optional(),
  // A refused attribute change (409 ATTRIBUTE_CONFLICT): who holds a value, whose would break.
  impact: z.object({ holders: z.number().int().nonnegative(), failing: z.number().int().nonnegative() }).optional(),
});

/** The extension members a problem may carry beyond the contract's fields. */
export interface ProblemExtra {
  permission?: string;
  limit?: number;
  file?: ImportFilePreview;
  impact?: { holders: number; failing: number };
}

export type Problem = z.infer<typeof ProblemSchema>;

/** A relative URI reference, resolved against the API origin: `/problems/validation-failed`. */
export function problemTypeUri(code: ErrorCode): string {
  return `/problems/${code.toLowerCase().replaceAll('_', '-')}`;
}

export function makeProblem(
  code: ErrorCode,
  extra: { detail?: string; errors?: FieldErrors } & ProblemExtra = {},
): Problem {
  const { status, title } = ERRORS[code];
  return {
    type: problemTypeUri(code),
    title,
    status,
    code,
    detail: extra.detail ?? title,
    ...(extra.errors ? { errors: extra.errors } : {}),
    ...(extra.permission ? { permission: extra.permission } : {}),
    ...(extra.limit ? { limit: extra.limit } : {}),
    ...(extra.file ? { file: extra.file } : {}),
    ...(extra.impact ? { impact: extra.impact } : {}),
  };
}

type IssueSource = { readonly issues: readonly z.core.$ZodIssue[] };

function pathKey(path: readonly PropertyKey[]): string {
  return path.map((segment) => String(segment)).join('.');
}

/**
 * Zod issues → `{ 'filters.created_between.from': ['…'] }`. An unknown key (zod reports all of
 * them in one issue at the parent) is filed under each key's own path, so `filters.foo` points
 * at the offending filter. Issues about the whole input go under {@link ROOT_ERROR_KEY}.
 * At most `maxPaths` paths are reported: 10 000 bad ids need not make a 1 MB error body.
 */
export function fieldErrorsFromZod(error: IssueSource, maxPaths = 100): FieldErrors {
  // A Map, not an object: a path such as `constructor` must not find Object.prototype's.
  const errors = new Map<string, string[]>();
  const file = (key: string, message: string) => {
    const list = errors.get(key);
    if (list === undefined) {
      if (errors.size < maxPaths) errors.set(key, [message]);
    } else if (!list.includes(message)) {
      list.push(message);
    }
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) file(pathKey([...issue.path, key]), issue.message);
    } else {
      file(pathKey(issue.path), issue.message);
    }
  }
  return Object.fromEntries(errors);
}

const SHOW_CODES = ['RELATION_NOT_ALLOWED', 'COUNT_NOT_ALLOWED', 'APPEND_NOT_ALLOWED'] as const;
export type ShowErrorCode = (typeof SHOW_CODES)[number];

function isShowCode(value: unknown): value is ShowErrorCode {
  return (SHOW_CODES as readonly unknown[]).includes(value);
}

/** The problem code for a failed parse: a show-query code carried by a custom issue, else VALIDATION_FAILED. */
export function codeFromZod(error: IssueSource): ErrorCode {
  for (const issue of error.issues) {
    if (issue.code !== 'custom') continue;
    const code: unknown = issue.params?.code;
    if (isShowCode(code)) return code;
  }
  return 'VALIDATION_FAILED';
}
