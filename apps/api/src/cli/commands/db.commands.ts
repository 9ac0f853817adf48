import { z } from 'zod';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { migrate } from '../../db/migrations/migrator.js';
import { seedAdministrator } from '../../seed/base.seeder.js';
import { seedDemoUsers } from '../../seed/demo.seeder.js';
import type { CliIO } from '../cli-error.js';
import { parseOptions } from '../options.js';

export async function dbMigrate(db: Database, _config: AppConfig, args: string[], io: CliIO) {
  parseOptions(args, {}, z.object({}));
  const applied = await migrate(db, (message) => io.err(message));
  io.out(
    applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}.` : 'The database is up to date.',
  );
}

export async function dbSeed(db: Database, config: AppConfig, args: string[], io: CliIO) {
  const opts = parseOptions(
    args,
    { demo: { type: 'string' } },
    z.object({ demo: z.coerce.number().int().min(0).max(10_000_000).default(0) }),
  );
  await migrate(db, (message) => io.err(message));
  const result = await seedAdministrator(db, {
    adminEmail: config.ADMIN_EMAIL,
    adminPassword: config.ADMIN_PASSWORD,
    adminRoleName: config.users.activation.adminRoleName,
  });
  io.out('Permissions and roles are in place.');
  if (result.adminCreated) {
    io.out(`Created the administrator ${config.ADMIN_EMAIL}.`);
    if (result.generatedPassword) io.out(`Password (shown once): ${result.generatedPassword}`);
  } else {
    io.out(`The administrator ${config.ADMIN_EMAIL} already exists; left unchanged.`);
  }
  if (opts.demo > 0) {
    const started = Date.now();
    let lastReport = 0;
    await seedDemoUsers(db, opts.demo, (done) => {
      if (done - lastReport >= 100_000) {
        lastReport = done;
        io.out(`  … ${done.toLocaleString('en')} demo users`);
      }
    });
    io.out(`Added ${opts.demo.toLocaleString('en')} demo users in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }
}
