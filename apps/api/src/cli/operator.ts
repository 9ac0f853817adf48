import { randomUUID } from 'node:crypto';
import { PERMISSIONS } from '@app/contracts';
import { AppError } from '../errors.js';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { WriteContext } from '../modules/users/users.write-support.js';
import { CliError } from './cli-error.js';

/**
 * The command line runs the API's own write handlers as the server's operator: every permission
 * (whoever can run it can read the database anyway), no account (id 0 is nobody's, so no
 * self-rule applies), recorded in the audit trail without an actor and with `source: 'cli'`.
 */
export function operatorContext(db: Database, config: AppConfig): WriteContext {
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

/** A handler's refusal as one line for the operator: the first field error, else its sentence. */
export async function asOperator<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const [field, messages] = Object.entries(err.errors ?? {})[0] ?? [];
    throw new CliError(field && messages?.[0] ? `--${field}: ${messages[0]}` : err.detail);
  }
}
