import { PermissionSchema } from '@app/contracts';
import { Op } from 'sequelize';
import { z } from 'zod';
import { recordAudit } from '../../audit/audit.js';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { CliError, type CliIO } from '../cli-error.js';
import { parseOptions } from '../options.js';

export async function roleCreate(db: Database, _config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    { name: { type: 'string' }, permission: { type: 'string', multiple: true } },
    z.object({
      name: z
        .string({ error: 'is required' })
        .trim()
        .min(1, 'must not be empty')
        .max(100, 'must be at most 100 characters')
        .regex(/^[\w.-]+$/, 'may contain only letters, digits, ".", "-" and "_"'),
      permission: z.array(PermissionSchema, { error: 'is not a known permission' }).default([]),
    }),
  );
  const role = await db.sequelize.transaction(async (tx) => {
    const existing = await db.models.Role.findOne({ where: { name: opts.name }, transaction: tx });
    if (existing) throw new CliError(`A role named ${opts.name} already exists.`);
    const created = await db.models.Role.create({ name: opts.name, guard_name: 'web' }, { transaction: tx });
    const names = [...new Set(opts.permission)];
    if (names.length) {
      const perms = await db.models.Permission.findAll({ where: { name: { [Op.in]: names } }, transaction: tx });
      await db.models.RolePermission.bulkCreate(
        perms.map((p) => ({ role_id: created.id, permission_id: p.id })),
        { transaction: tx },
      );
    }
    await recordAudit(db, tx, {
      actorId: null,
      action: 'role.create',
      targetType: 'role',
      targetIds: [created.id],
      changes: { name: { before: null, after: created.name }, permissions: { before: null, after: names } },
      context: { source: 'cli' },
    });
    return created;
  });
  io.out(
    `Created role #${role.id} ${role.name}${opts.permission.length ? ` with ${opts.permission.join(', ')}` : ''}.`,
  );
}
