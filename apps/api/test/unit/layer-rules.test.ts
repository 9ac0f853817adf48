import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer rules of `npm run lint` (`lint:layers`, `.dependency-cruiser.cjs`), run as the root's
 * script runs them, on a small copy of the monorepo's shape: what the product does passes, and
 * each import the rules forbid — planted here, never in the real tree — is reported by name.
 */
const ROOT = path.resolve(import.meta.dirname, '../../../..');
const script = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts['lint:layers'] as string;

/** What the product does today, in miniature: every import here is allowed. */
const ALLOWED: Record<string, string> = {
  'apps/api/src/app/app-router.ts':
    'export const appRouter = { users: {} };\nexport type AppRouter = typeof appRouter;\n',
  'apps/api/src/server.ts': "import { appRouter } from './app/app-router';\nexport const server = appRouter;\n",
  'apps/api/src/db/database.ts': 'export const database = {};\n',
  'apps/web/src/lib/trpc.ts': "import type { AppRouter } from '@app/api/router';\nexport type Router = AppRouter;\n",
  'apps/web/src/lib/resource-list/list-links.ts':
    "export const roleMembersHref = (id: number) => '/users?role=' + id;\n",
  'apps/web/src/features/auth/use-session.ts': 'export const useSession = () => null;\n',
  'apps/web/src/features/users/list/users-list-state.ts': 'export const usersList = {};\n',
  'apps/web/src/features/users/users-page.tsx':
    "import { useSession } from '../auth/use-session';\nimport { usersList } from './list/users-list-state';\nexport const page = [useSession, usersList];\n",
  'apps/web/src/features/roles/role-page.tsx':
    "import { useSession } from '../auth/use-session';\nimport { roleMembersHref } from '../../lib/resource-list/list-links';\nexport const page = [useSession, roleMembersHref];\n",
  'apps/api/src/metrics/metrics.ts': "import { database } from '../db/database';\nexport const metrics = database;\n",
  'apps/api/src/modules/users/users.router.ts': 'export const usersRouter = {};\n',
  'apps/api/src/domain/users.rules.ts': 'export const judge = () => null;\n',
  'apps/web/src/features/users/pages/user-edit-page.tsx': 'export const UserEditPage = () => null;\n',
  'packages/contracts/src/index.ts': 'export const PERMISSIONS = [];\n',
  'packages/ui/src/index.ts': "import { PERMISSIONS } from '@app/contracts';\nexport const Button = PERMISSIONS;\n",
};

/** Each forbidden import: the file planting it, its text, the rule that must report it. */
const FORBIDDEN = [
  {
    what: 'a package importing an app by relative path',
    file: 'packages/contracts/src/planted-app.ts',
    text: "import '../../../apps/api/src/server';\n",
    rule: 'packages-import-no-app',
  },
  {
    what: 'a package importing an app by package name',
    file: 'packages/ui/src/planted-app.ts',
    text: "import type { AppRouter } from '@app/api/router';\nexport type R = AppRouter;\n",
    rule: 'packages-import-no-app',
  },
  {
    what: "the web app importing the API's database by relative path",
    file: 'apps/web/src/planted-db.ts',
    text: "import '../../api/src/db/database';\n",
    rule: 'web-takes-only-the-api-router',
  },
  {
    what: "the web app importing the router's file by relative path instead of @app/api/router",
    file: 'apps/web/src/planted-router-path.ts',
    text: "import type { AppRouter } from '../../api/src/app/app-router';\nexport type R = AppRouter;\n",
    rule: 'web-takes-only-the-api-router',
  },
  {
    what: 'the web app importing a path of @app/api its package does not export',
    file: 'apps/web/src/planted-unexported.ts',
    text: "import '@app/api/src/server';\n",
    rule: 'web-takes-only-the-api-router',
  },
  {
    what: 'the web app importing a value (not the type) of @app/api/router',
    file: 'apps/web/src/planted-value.ts',
    text: "import { appRouter } from '@app/api/router';\nexport const r = appRouter;\n",
    rule: 'web-takes-the-api-router-as-a-type',
  },
  {
    what: 'the contracts importing the UI kit by package name',
    file: 'packages/contracts/src/planted-ui.ts',
    text: "import '@app/ui';\n",
    rule: 'contracts-import-no-ui-nor-react',
  },
  {
    what: 'the contracts importing the UI kit by relative path',
    file: 'packages/contracts/src/planted-ui-path.ts',
    text: "import '../../ui/src/index';\n",
    rule: 'contracts-import-no-ui-nor-react',
  },
  {
    what: 'the contracts importing React',
    file: 'packages/contracts/src/planted-react.ts',
    text: "import { useState } from 'react';\nexport const s = useState;\n",
    rule: 'contracts-import-no-ui-nor-react',
  },
  {
    what: "a feature importing another feature's internals",
    file: 'apps/web/src/features/roles/planted-cross.ts',
    text: "import { usersList } from '../users/list/users-list-state';\nexport const l = usersList;\n",
    rule: 'web-features-share-only-public-pieces',
  },
  {
    what: "a feature importing another feature's edit page",
    file: 'apps/web/src/features/roles/planted-pages.ts',
    text: "import { UserEditPage } from '../users/pages/user-edit-page';\nexport const p = UserEditPage;\n",
    rule: 'web-features-share-only-public-pieces',
  },
  {
    what: 'the database layer importing the metrics',
    file: 'apps/api/src/db/planted-metrics.ts',
    text: "import { metrics } from '../metrics/metrics';\nexport const m = metrics;\n",
    rule: 'api-db-imports-only-db',
  },
  {
    what: 'the rules reading the database',
    file: 'apps/api/src/domain/planted-sql.ts',
    text: "import { database } from '../db/database';\nexport const d = database;\n",
    rule: 'api-domain-takes-facts',
  },
  {
    what: 'the rules importing the metrics',
    file: 'apps/api/src/domain/planted-metrics.ts',
    text: "import { metrics } from '../metrics/metrics';\nexport const m = metrics;\n",
    rule: 'api-lower-layers-import-no-module-or-door',
  },
  {
    what: 'the metrics importing a module',
    file: 'apps/api/src/metrics/planted-module.ts',
    text: "import { usersRouter } from '../modules/users/users.router';\nexport const r = usersRouter;\n",
    rule: 'api-trpc-kit-knows-no-module-nor-rest',
  },
  {
    what: "a feature importing another feature's page",
    file: 'apps/web/src/features/roles/planted-page.ts',
    text: "import { page } from '../users/users-page';\nexport const p = page;\n",
    rule: 'web-features-share-only-public-pieces',
  },
];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** `npm run lint:layers` in `dir`, with `args` after the script's own. */
function lintLayers(dir: string, args = '') {
  return spawnSync('sh', ['-c', `${script} ${args}`], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${path.join(ROOT, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}` },
  });
}

/** The violations `lint:layers` finds in `dir`, read from its JSON report. */
function violationsIn(dir: string): Violation[] {
  const run = lintLayers(dir, '--output-type json');
  if (!run.stdout) throw new Error(`lint:layers printed nothing: ${run.stderr}`);
  return JSON.parse(run.stdout).summary.violations;
}

function write(dir: string, files: Record<string, string>) {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

let dir = '';
let clean: { status: number | null; violations: Violation[] };
let planted: Violation[];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-layers-'));
  fs.copyFileSync(path.join(ROOT, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  write(dir, {
    'package.json': '{ "name": "layers-fixture", "private": true }\n',
    // The workspaces' own package.json files: their `exports` decide what a package name reaches.
    'apps/api/package.json': fs.readFileSync(path.join(ROOT, 'apps/api/package.json'), 'utf8'),
    'packages/contracts/package.json': fs.readFileSync(path.join(ROOT, 'packages/contracts/package.json'), 'utf8'),
    'packages/ui/package.json': fs.readFileSync(path.join(ROOT, 'packages/ui/package.json'), 'utf8'),
    'node_modules/react/package.json': '{ "name": "react", "main": "index.js" }\n',
    'node_modules/react/index.js': 'exports.useState = () => [];\n',
    ...ALLOWED,
  });
  // As npm workspaces link them.
  fs.mkdirSync(path.join(dir, 'node_modules/@app'));
  for (const [name, target] of Object.entries({
    api: 'apps/api',
    contracts: 'packages/contracts',
    ui: 'packages/ui',
  })) {
    fs.symlinkSync(`../../${target}`, path.join(dir, 'node_modules/@app', name));
  }
  clean = { status: lintLayers(dir).status, violations: violationsIn(dir) };
  write(dir, Object.fromEntries(FORBIDDEN.map((c) => [c.file, c.text])));
  planted = violationsIn(dir);
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the layer rules (npm run lint:layers)', () => {
  it("pass the product's own layering: the router's type, the session hook, the list kit's links", () => {
    expect(clean.violations).toEqual([]);
    expect(clean.status).toBe(0);
  });

  it('fail the lint (a non-zero exit) when a forbidden import is planted', () => {
    const run = lintLayers(dir);
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain('packages-import-no-app');
  });

  it.each(FORBIDDEN)('report $what ($rule)', ({ file, rule }) => {
    const found = planted.filter((v) => v.from === file).map((v) => v.rule.name);
    expect(found).toContain(rule);
  });
});
