import { PermissionSchema, RoleCreateInputSchema } from '@app/contracts';
import { z } from 'zod';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { createRole } from '../../modules/roles/create.handler.js';
import type { CliIO } from '../cli-error.js';
import { asOperator, operatorContext, parseInput } from '../operator.js';
import { parseOptions } from '../options.js';

/** role:create: the API's own role handler as the operator — the same name rule, uniqueness and audit row. */
export async function roleCreate(db: Database, config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    { name: { type: 'string' }, permission: { type: 'string', multiple: true } },
    z.object({
      name: z.string({ error: 'is required' }),
      permission: z.array(PermissionSchema, { error: 'is not a known permission' }).default([]),
    }),
  );
  const input = parseInput(RoleCreateInputSchema, { name: opts.name, permissions: opts.permission });
  const { item } = await asOperator(() => createRole({ ctx: operatorContext(db, config), input }), {
    permissions: 'permission',
  });
  const granted = item.permissions?.map((p) => p.name) ?? [];
  io.out(`Created role #${item.id} ${item.name}${granted.length ? ` with ${granted.join(', ')}` : ''}.`);
}
