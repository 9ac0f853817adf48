import fs from 'node:fs';
import path from 'node:path';
import type { MariaDbInstance } from './mariadb.js';

/** Secrets the bed handed out: passwords, the metrics token, every session id it was given. */
export const bedSecrets = new Set<string>();

/** Shapes no log line or audit row may hold whatever the value: a stored hash, an API token. */
const SHAPES: Array<[string, RegExp]> = [
  ['password hash', /scrypt\$\d+\$/],
  ['API token', /\buat_[A-Za-z0-9_-]{16,}/],
];

function findingsIn(kind: string, text: string): string[] {
  const found: string[] = [];
  for (const secret of bedSecrets) if (text.includes(secret)) found.push(`${kind}: a secret of the bed`);
  for (const [name, shape] of SHAPES) if (shape.test(text)) found.push(`${kind}: a ${name}`);
  return found;
}

/**
 * Every log line the instances and the balancer wrote, and every audit row on the primary, must
 * be free of the bed's secrets (the administrator's and the database's passwords, the metrics
 * token, session ids) and of anything shaped like a hash or an API token.
 */
export async function scanBedForSecrets(dir: string, primary: MariaDbInstance): Promise<string[]> {
  const found: string[] = [];
  const logs = fs.readdirSync(dir).filter((f) => f.endsWith('.log'));
  const haproxyLog = path.join(dir, 'haproxy', 'haproxy.log');
  for (const file of [...logs.map((f) => path.join(dir, f)), haproxyLog]) {
    if (fs.existsSync(file)) found.push(...findingsIn(path.basename(file), fs.readFileSync(file, 'utf8')));
  }
  const rows = (await primary.sql('SELECT * FROM audit_logs', 'useradmin').catch(() => [])) as object[];
  found.push(...findingsIn('audit_logs', JSON.stringify(rows)));
  return [...new Set(found)];
}
