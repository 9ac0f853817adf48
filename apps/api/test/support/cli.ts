import { runCli } from '../../src/cli/run-cli.js';

/** What a command run said: its exit code, and its standard output and error as text. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/**
 * A runner of the operator CLI against a test database (`env`: its target's), in this process,
 * as `npm run cli -- <argv>` runs it: silent logs, the seed's administrator password given.
 */
export function cliRunner(env: () => Record<string, string | undefined>) {
  return async (...argv: string[]): Promise<CliRun> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      argv,
      { ...env(), ADMIN_PASSWORD: 'admin-password', LOG_LEVEL: 'silent' },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}
