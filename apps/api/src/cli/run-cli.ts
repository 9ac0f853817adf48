import { openConfiguredDatabase } from '../bootstrap.js';
import { type AppConfig, ConfigError, loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { CliError, type CliIO } from './cli-error.js';
import { attributeCreate, attributeDelete, attributeList } from './commands/attribute.commands.js';
import { auditPrune } from './commands/audit.commands.js';
import { dbMigrate, dbSeed } from './commands/db.commands.js';
import { roleCreate, roleDelete, roleUpdate } from './commands/role.commands.js';
import { tokenCreate } from './commands/token.commands.js';
import { userCreate, userSetPassword, userUpdate } from './commands/user.commands.js';
import { secretsReseal } from './commands/secrets.commands.js';
import { webhooksPrune, webhooksReseal } from './commands/webhook.commands.js';

type Command = (db: Database, config: AppConfig, args: string[], io: CliIO) => Promise<void>;

const COMMANDS: Record<string, { run: Command; usage: string }> = {
  'db:migrate': { run: dbMigrate, usage: 'db:migrate                       apply pending migrations' },
  'db:seed': {
    run: dbSeed,
    usage: 'db:seed [--demo N]               permissions, roles, administrator (+ N demo users)',
  },
  'user:create': {
    run: userCreate,
    usage:
      'user:create --email E --name N --password P [--role R]... [--permission P]... [--inactive] [--attribute key=value]...',
  },
  'user:update': {
    run: userUpdate,
    usage: 'user:update --email E [--name N] [--attribute key=value]...   key= clears an attribute',
  },
  'user:set-password': { run: userSetPassword, usage: 'user:set-password --email E --password P' },
  'role:create': { run: roleCreate, usage: 'role:create --name N [--permission P]...' },
  'attribute:list': { run: attributeList, usage: 'attribute:list                   the declared custom attributes' },
  'attribute:create': {
    run: attributeCreate,
    usage:
      'attribute:create --key K --label L --type T [--value V]... [--required] [--unique] [--sensitivity S] [--pattern P] [--min-length N] [--max-length N] [--min X] [--max X] [--description D]',
  },
  'attribute:delete': {
    run: attributeDelete,
    usage: 'attribute:delete --key K [--dry-run]   the attribute and every value of it',
  },
  'role:update': {
    run: roleUpdate,
    usage: 'role:update --name N [--rename M] [--permission P]... | [--no-permissions]   the whole list',
  },
  'role:delete': { run: roleDelete, usage: 'role:delete --name N [--detach]   --detach takes it from its members' },
  'audit:prune': {
    run: auditPrune,
    usage: 'audit:prune [--days N]           delete audit events older than N days (AUDIT_RETENTION_DAYS)',
  },
  'webhooks:prune': {
    run: webhooksPrune,
    usage: 'webhooks:prune [--days N]        delete webhook history older than N days (WEBHOOKS_RETENTION_DAYS)',
  },
  'webhooks:reseal': {
    run: webhooksReseal,
    usage: 'webhooks:reseal                  seal every webhook signing secret with the current SECRETS_KEY',
  },
  'secrets:reseal': {
    run: secretsReseal,
    usage:
      'secrets:reseal                   seal every stored secret (webhooks, SSO providers, TOTP, waiting mail) with the current SECRETS_KEY',
  },
  'token:create': {
    run: tokenCreate,
    usage: 'token:create --email E [--name N] [--expires-days D] [--scope P]...   personal API token, shown once',
  },
};

function usage(): string {
  return [
    'Usage: npm run cli -- <command> [options]',
    '',
    'Commands:',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
    '',
    'A value holding spaces is quoted for the shell: --role "Help Desk", --name \'Sales – EMEA\'.',
    'Give --role once per role. A role is found by its name whatever its case and spacing.',
  ].join('\n');
}

/** Runs one command; returns the process exit code. Never throws for an operator's mistake. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIO): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.out(usage());
    return name ? 0 : 1;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`Unknown command "${name}".\n\n${usage()}`);
    return 1;
  }
  let config: AppConfig;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      io.err(err.message);
      return 1;
    }
    throw err;
  }
  let db: Database | undefined;
  try {
    db = await openConfiguredDatabase(config);
    await command.run(db, config, args, io);
    return 0;
  } catch (err) {
    if (err instanceof CliError) {
      io.err(`Error: ${err.message}`);
      return 1;
    }
    io.err(`Error: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  } finally {
    await db?.close();
  }
}
