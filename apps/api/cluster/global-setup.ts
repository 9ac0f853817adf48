import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { API_DIR } from './bed/api-instance.js';

/** The bed runs the compiled runtime, as production does: build it once, and check the parts. */
export default function setup() {
  for (const binary of ['/usr/sbin/mariadbd', '/usr/sbin/haproxy']) {
    if (!fs.existsSync(binary)) {
      throw new Error(`${binary} is missing: apt-get install -y mariadb-server haproxy (.ci/run does this).`);
    }
  }
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: API_DIR, stdio: 'inherit' });
}
