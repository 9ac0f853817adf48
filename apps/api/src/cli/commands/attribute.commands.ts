import { AttributeCreateInputSchema } from '@app/contracts';
import { z } from 'zod';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { createAttribute } from '../../modules/attributes/create.handler.js';
import { deleteAttribute } from '../../modules/attributes/delete.handler.js';
import { listAttributes } from '../../modules/attributes/list.handler.js';
import type { CliIO } from '../cli-error.js';
import { asOperator, operatorContext, parseInput } from '../operator.js';
import { parseOptions } from '../options.js';

const n = (count: number) => count.toLocaleString('en');

/** attribute:list: every declared attribute, one line each: key, type, label, holders. */
export async function attributeList(db: Database, config: AppConfig, args: string[], io: CliIO) {
  parseOptions(args, {}, z.object({}));
  const { rows } = await listAttributes({ ctx: operatorContext(db, config), input: undefined });
  if (rows.length === 0) {
    io.out('No attributes are declared.');
    return;
  }
  for (const a of rows) {
    const flags = [
      a.required ? 'required' : '',
      a.unique ? 'unique' : '',
      a.sensitivity === 'none' ? '' : a.sensitivity,
    ]
      .filter(Boolean)
      .join(', ');
    io.out(`${a.key}\t${a.type}\t${a.label}${flags ? ` (${flags})` : ''}\t${n(a.holders)} holder(s)`);
  }
}

/**
 * attribute:create: the API's own POST /attributes handler as the operator — the same rules
 * between fields, the same key rule, the same audit row.
 */
export async function attributeCreate(db: Database, config: AppConfig, args: string[], io: CliIO) {
  const text = { type: 'string' } as const;
  const opts = parseOptions(
    args,
    {
      key: text,
      label: text,
      type: text,
      value: { type: 'string', multiple: true },
      required: { type: 'boolean' },
      unique: { type: 'boolean' },
      sensitivity: text,
      description: text,
      pattern: text,
      'min-length': text,
      'max-length': text,
      min: text,
      max: text,
    },
    z.object({
      key: z.string({ error: 'is required' }),
      label: z.string({ error: 'is required' }),
      type: z.string({ error: 'is required' }),
      value: z.array(z.string()).optional(),
      required: z.boolean().optional(),
      unique: z.boolean().optional(),
      sensitivity: z.string().optional(),
      description: z.string().optional(),
      pattern: z.string().optional(),
      'min-length': z.coerce.number({ error: 'must be a whole number' }).optional(),
      'max-length': z.coerce.number({ error: 'must be a whole number' }).optional(),
      min: z.string().optional(),
      max: z.string().optional(),
    }),
  );
  // A bound is a number for a number attribute, a date (as written) for a date attribute.
  const bound = (v: string | undefined) => (v === undefined ? undefined : opts.type === 'number' ? Number(v) : v);
  const validators = Object.fromEntries(
    Object.entries({
      pattern: opts.pattern,
      min_length: opts['min-length'],
      max_length: opts['max-length'],
      min: bound(opts.min),
      max: bound(opts.max),
    }).filter(([, v]) => v !== undefined),
  );
  const flags = {
    values: 'value',
    'validators.pattern': 'pattern',
    'validators.min_length': 'min-length',
    'validators.max_length': 'max-length',
    'validators.min': 'min',
    'validators.max': 'max',
  };
  const input = parseInput(
    AttributeCreateInputSchema,
    {
      key: opts.key,
      label: opts.label,
      type: opts.type,
      ...(opts.value ? { values: opts.value } : {}),
      required: opts.required ?? false,
      unique: opts.unique ?? false,
      validators,
      ...(opts.sensitivity ? { sensitivity: opts.sensitivity } : {}),
      ...(opts.description ? { description: opts.description } : {}),
    },
    flags,
  );
  const { item } = await asOperator(() => createAttribute({ ctx: operatorContext(db, config), input }), flags);
  io.out(`Declared attribute ${item.key} (${item.type}): ${item.label}.`);
}

/** attribute:delete: the attribute and every value of it (--dry-run: how many values would go). */
export async function attributeDelete(db: Database, config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    { key: { type: 'string' }, 'dry-run': { type: 'boolean' } },
    z.object({ key: z.string({ error: 'is required' }), 'dry-run': z.boolean().optional() }),
  );
  const dryRun = opts['dry-run'] ?? false;
  const { impact } = await asOperator(() =>
    deleteAttribute({ ctx: operatorContext(db, config), input: { key: opts.key, dryRun } }),
  );
  io.out(
    dryRun
      ? `Removing attribute ${opts.key} would clear the value(s) of ${n(impact.holders)} user(s). Nothing was changed.`
      : `Removed attribute ${opts.key} and the value(s) of ${n(impact.holders)} user(s).`,
  );
}
