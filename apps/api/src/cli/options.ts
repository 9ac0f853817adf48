import { parseArgs } from 'node:util';
import { z } from 'zod';
import { CliError } from './cli-error.js';

type OptionSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/** Parses `--flag value` options strictly and validates them with zod: unknown flags and bad values are refused. */
export function parseOptions<S extends z.ZodType>(args: string[], spec: OptionSpec, schema: S): z.output<S> {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args, options: spec, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new CliError(err instanceof Error ? err.message.replace(/\. To specify.*$/s, '.') : String(err));
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = issue?.path.length ? `--${issue.path.join('.')}` : 'options';
    throw new CliError(`${flag}: ${issue?.message ?? 'invalid value'}`);
  }
  return parsed.data;
}

/** `[--days N]` of a prune command: a whole number of days, at least 1; undefined when not given. */
export function parseDaysOption(args: string[]): number | undefined {
  return parseOptions(
    args,
    { days: { type: 'string' } },
    z.object({
      days: z.coerce
        .number({ error: 'must be a whole number of days' })
        .int('must be a whole number of days')
        .min(1, 'must be at least 1')
        .optional(),
    }),
  ).days;
}
