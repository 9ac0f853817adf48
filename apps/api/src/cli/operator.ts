import { randomUUID } from 'node:crypto';
import { fieldErrorsFromZod, PERMISSIONS } from '@app/contracts';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { HandlerContext } from '../context.js';
import { CliError } from './cli-error.js';

/**
 * The command line runs the API's own write handlers as the server's operator: every permission
 * (whoever can run it can read the database anyway), no account (id 0 is nobody's, so no
 * self-rule applies), recorded in the audit trail without an actor and with `source: 'cli'`.
 */
export function operatorContext(db: Database, config: AppConfig): HandlerContext {
  return {
    db,
    config,
    ip: '',
    requestId: `cli-${randomUUID()}`,
    auth: null,
    source: 'cli',
    actor: { id: 0, name: 'the command line', email: '', permissions: new Set(PERMISSIONS) },
  };
}

/**
 * A handler's refusal as one line for the operator: the first field error, named by the flag
 * that carries it (`flags` maps an input field to its flag where the names differ), else its
 * sentence.
 */
export async function asOperator<T>(run: () => Promise<T>, flags: Record<string, string> = {}): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const [field, messages] = Object.entries(err.errors ?? {})[0] ?? [];
    throw new CliError(field && messages?.[0] ? `--${flags[field] ?? field}: ${messages[0]}` : err.detail);
  }
}

/** Validates with a contract schema the API uses; the first problem becomes the operator's one line. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  flags: Record<string, string> = {},
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const [field, messages] = Object.entries(fieldErrorsFromZod(parsed.error))[0] ?? ['input', ['is invalid']];
    throw new CliError(`--${flags[field] ?? field}: ${messages[0]}`);
  }
  return parsed.data;
}
