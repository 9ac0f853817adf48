// The layering of apps/api/src, apps/web/src and packages/*/src, checked by `npm run lint` (see
// docs/decisions.md, "Layers point down, and a checker says so"). A rule names what may NOT be
// imported; what it does not forbid is allowed.
//
// Across the workspaces, lowest first: packages/contracts ← packages/ui ← the apps. Nothing in a
// package imports an app, the contracts import neither the UI kit nor React, and the web app takes
// from the API only the router's type (`@app/api/router`).
//
// API, lowest first:
//   base files (errors, config, logger, version, …) and db/ (Dialect, models, migrations)
//   ← auth/  ← domain/ (the rules: facts and input in, decisions out; no database)
//   ← journal/ (audit rows + outbox), query/, export/, webhooks/ (dispatcher), mail/ (outbox and
//     sender), housekeeping/,
//     jobs/ (the job store and runner; the kinds of job are handed to it by app/), bulk/ (the bulk
//     kit: a resource's bulk over ids or a selection, and the selection job), imports/,
//     repositories/ (the facts the rules take, read under the writes' locks)
//   ← modules/ (handlers; *.router.ts wire them to trpc/)
//   ← trpc/ (tRPC kit)  ← rest/ (the REST bridge over the same procedures)  ← metrics/ (its route)
//   ← app/ (the composition root)  ← server.ts ← main.ts;  cli/ and seed/ are doors/tools beside them.
/**
 * Every way an import reaches a workspace: its folder (a relative path), its package name as npm
 * links it (node_modules/@app/<name>, kept as that path: `preserveSymlinks`), or a path of the
 * package its `exports` do not offer (left unresolved, under its own name).
 */
const workspace = (folder, name) => `^(${folder}/|node_modules/${name}(/|$)|${name}(/|$))`;
const API_WORKSPACE = workspace('apps/api', '@app/api');
const UI_WORKSPACE = workspace('packages/ui', '@app/ui');
/** The one file the web may import from the API: what `@app/api/router` resolves to (apps/api/package.json). */
const API_ROUTER = `^node_modules/@app/api/${require('./apps/api/package.json').exports['./router'].replace(/^\.\//, '').replaceAll('.', '\\.')}$`;
/** React and the libraries built on it (react-dom, @types/react, @radix-ui/react-*, lucide-react, …). */
// Empty alternatives rather than `?`: dependency-cruiser refuses nested quantifiers as unsafe.
const REACT = '(^|node_modules/)(@[^/]+/|)([^/]*-|)react(-[^/]*|)(/|$)';

/**
 * What a feature of the web app offers the others, by file name without extension: the session
 * hook, the account pages' navigation, the error and loading states, the theme switch, a job's
 * progress pieces and its report link, and the sections the user page embeds. The rest of a
 * feature is its own; a piece two features need (a link into a list, say) goes to lib/ or
 * components/, or is added here on purpose.
 */
const FEATURE_PUBLIC = {
  auth: ['use-session', 'account-nav', 'use-sign-out'],
  errors: ['query-states', 'record-page', 'record-error-state'],
  theme: ['theme-switch'],
  jobs: ['job-page', 'job-progress', 'job-skips', 'job-undo', 'job-watch', 'use-job', 'job-name'],
  audit: ['user-history', 'audit-list-state'],
  sessions: ['sign-in-history', 'user-sessions-section'],
  tokens: ['user-tokens-section'],
  attributes: ['attribute-value-fields', 'user-attribute-form', 'user-attributes-card', 'user-picker'],
};
const featurePublic = Object.entries(FEATURE_PUBLIC).map(
  ([feature, files]) => `^apps/web/src/features/${feature}/(${files.join('|')})\\.tsx?$`,
);

const API = '^apps/api/src/';
const folders = (...names) => `${API}(${names.join('|')})/`;
const files = (...names) => `${API}(${names.join('|')})\\.ts$`;

// The rules that forbid a layer to import others. A rule carried by several layers below becomes
// one rule whose `from` covers them all.
const BASE_IS_THE_FLOOR = {
  name: 'api-base-is-the-floor',
  comment: 'The base files import nothing above them but the db types and auth types they describe.',
};
const LOWER_LAYERS = {
  name: 'api-lower-layers-import-no-module-or-door',
  comment:
    'db, auth, the journal, queries, exports, webhooks, housekeeping, the domain and the seeders sit below modules and doors.',
};
const DOMAIN_NO_TRANSPORT = {
  name: 'api-domain-imports-no-transport',
  comment: 'The rules are decided without knowing the door: no tRPC, REST, HTTP context or handler module.',
};
const DOMAIN_TAKES_FACTS = {
  name: 'api-domain-takes-facts',
  comment:
    'The rules take facts and input and return decisions: no database, no query, no repository (repositories/ reads the facts and applies the plan).',
};
const HANDLERS_NO_TRANSPORT = {
  name: 'api-handlers-import-no-transport',
  comment:
    "Handlers are door-neutral (tRPC, REST and the CLI call them): only a module's *.router.ts / *.procedures.ts wires them to trpc/.",
};
const ROUTERS_ONLY_THE_KIT = {
  name: 'api-routers-import-only-the-trpc-kit',
  comment: 'A router wires handlers to the tRPC kit; it never reaches the REST bridge, the root or the CLI.',
};
const KIT_KNOWS_NO_MODULE = {
  name: 'api-trpc-kit-knows-no-module-nor-rest',
  comment:
    'trpc/ is the kit modules build on; rest/ sits above it. Neither knows a module (the composition root does).',
};
const TRPC_BELOW_REST = {
  name: 'api-trpc-below-rest',
  comment: 'The REST bridge calls tRPC procedures; tRPC never imports the bridge.',
};

/**
 * The API's layers, lowest first: the one place a folder or base file is named, so a new folder
 * is one edit (to a layer's `path`, or one new entry). `path` is the whole layer when something
 * imports it; `pathNot` leaves files out of the layer's own rules (a module's routers have theirs).
 * `mayNotImport` gives, per rule, the layers the layer may not import: 'x+' is layer x and every
 * layer listed after it.
 */
const API_LAYERS = [
  {
    name: 'base',
    path: files(
      'errors',
      'version',
      'config',
      'config-helpers',
      'users-config',
      'logger',
      'lifecycle',
      'trust-proxy',
      'fastify-refusals',
      'context',
    ),
    mayNotImport: [
      [BASE_IS_THE_FLOOR, 'services', 'rules', 'seed', 'modules', 'trpc', 'rest', 'metrics', 'app', 'cli'],
    ],
  },
  { name: 'db', path: folders('db'), mayNotImport: [[LOWER_LAYERS, 'modules+']] },
  { name: 'auth', path: folders('auth'), mayNotImport: [[LOWER_LAYERS, 'modules+']] },
  {
    name: 'services',
    path: folders(
      'journal',
      'query',
      'export',
      'webhooks',
      'mail',
      'housekeeping',
      'jobs',
      'bulk',
      'imports',
      'repositories',
      'sso',
    ),
    mayNotImport: [[LOWER_LAYERS, 'modules+']],
  },
  {
    name: 'rules',
    path: folders('domain'),
    mayNotImport: [
      [LOWER_LAYERS, 'modules+'],
      [DOMAIN_NO_TRANSPORT, 'modules', 'trpc', 'rest', 'request', 'app', 'server', 'main', 'cli'],
      [DOMAIN_TAKES_FACTS, 'db', 'services'],
    ],
  },
  { name: 'seed', path: folders('seed'), mayNotImport: [[LOWER_LAYERS, 'modules+']] },
  {
    name: 'modules',
    path: folders('modules'),
    pathNot: '(\\.router|procedures)\\.ts$',
    mayNotImport: [[HANDLERS_NO_TRANSPORT, 'trpc+']],
  },
  {
    name: 'routers',
    path: `${API}modules/.+[.-](router|procedures)\\.ts$`,
    mayNotImport: [[ROUTERS_ONLY_THE_KIT, 'rest+']],
  },
  {
    name: 'trpc',
    path: folders('trpc'),
    mayNotImport: [
      [KIT_KNOWS_NO_MODULE, 'modules', 'app', 'server', 'main', 'cli'],
      [TRPC_BELOW_REST, 'rest'],
    ],
  },
  {
    name: 'rest',
    path: folders('rest'),
    mayNotImport: [[KIT_KNOWS_NO_MODULE, 'modules', 'app', 'server', 'main', 'cli']],
  },
  // The Prometheus registry and its route: answers with the REST bridge's problems, serves the
  // server, knows no module.
  {
    name: 'metrics',
    path: folders('metrics'),
    mayNotImport: [[KIT_KNOWS_NO_MODULE, 'modules', 'app', 'server', 'main', 'cli']],
  },
  { name: 'request', path: files('request-context', 'api-scope') },
  { name: 'bootstrap', path: files('bootstrap') },
  { name: 'app', path: folders('app') },
  { name: 'server', path: files('server') },
  { name: 'main', path: files('main') },
  { name: 'cli', path: folders('cli') },
];

const layer = (name) => {
  const found = API_LAYERS.find((l) => l.name === name);
  if (!found) throw new Error(`.dependency-cruiser.cjs: no API layer named ${name}`);
  return found;
};
/** 'x' → [x]; 'x+' → x and every layer after it. */
const layerNames = (ref) =>
  ref.endsWith('+')
    ? API_LAYERS.slice(API_LAYERS.indexOf(layer(ref.slice(0, -1)))).map((l) => l.name)
    : [layer(ref).name];
const anyOf = (paths) => paths.join('|');

/** One forbidden rule per rule object, its `from` the layers carrying it, its `to` what they may not import. */
function layerRules() {
  const byRule = new Map();
  for (const l of API_LAYERS) {
    for (const [rule, ...refs] of l.mayNotImport ?? []) {
      const to = anyOf(refs.flatMap(layerNames).map((name) => layer(name).path));
      const entry = byRule.get(rule) ?? { from: [], to };
      if (entry.to !== to) throw new Error(`.dependency-cruiser.cjs: ${rule.name} forbids different layers per layer`);
      entry.from.push(l);
      byRule.set(rule, entry);
    }
  }
  return [...byRule].map(([rule, { from, to }]) => {
    const pathNot = from.flatMap((l) => (l.pathNot ? [l.pathNot] : []));
    if (pathNot.length > 0 && from.length > 1) throw new Error(`.dependency-cruiser.cjs: ${rule.name} mixes layers`);
    return {
      ...rule,
      severity: 'error',
      from: { path: anyOf(from.map((l) => l.path)), ...(pathNot.length > 0 ? { pathNot: pathNot[0] } : {}) },
      to: { path: to },
    };
  });
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Modules never import each other in a circle (type-only imports included).',
      from: { path: '^(apps|packages)/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'Folders never depend on each other both ways.',
      scope: 'folder',
      from: { path: '^(apps|packages)/[^/]+/src/' },
      to: { circular: true },
    },
    // ---- across the workspaces ----
    {
      name: 'packages-import-no-app',
      severity: 'error',
      comment:
        'The packages (contracts, ui) sit below the apps: they import nothing of apps/, by path or by package name.',
      from: { path: '^packages/' },
      to: { path: workspace('apps', '@app/(api|web)') },
    },
    {
      name: 'contracts-import-no-ui-nor-react',
      severity: 'error',
      comment:
        'The contracts are shared by the server and the client without side effects: no UI kit, no React, so the API never loads them.',
      from: { path: '^packages/contracts/' },
      to: { path: `${UI_WORKSPACE}|${REACT}` },
    },
    {
      name: 'web-takes-only-the-api-router',
      severity: 'error',
      comment:
        "The web app knows the API only as its router's type, `import type { AppRouter } from '@app/api/router'`: never another file of apps/api, nor the router's file by a relative path.",
      from: { path: '^apps/web/' },
      to: { path: API_WORKSPACE, pathNot: API_ROUTER },
    },
    {
      name: 'web-takes-the-api-router-as-a-type',
      severity: 'error',
      comment:
        "`@app/api/router` is imported as a type (`import type`): a value would bundle the API's server code into the SPA.",
      from: { path: '^apps/web/' },
      to: { path: API_ROUTER, dependencyTypesNot: ['type-only'] },
    },
    // ---- API ----
    {
      name: 'api-composition-root-only-from-server',
      severity: 'error',
      comment:
        'Only the entries import the composition root (app/): the server its router, main its job kinds; the web imports its type as @app/api/router.',
      from: { path: `^apps/api/src/`, pathNot: `${layer('app').path}|${layer('server').path}|${layer('main').path}` },
      to: { path: layer('app').path },
    },
    {
      name: 'api-db-imports-only-db',
      severity: 'error',
      comment: 'db/ is the bottom layer: models, migrations and connections import nothing else of the API.',
      from: { path: layer('db').path },
      to: { path: API, pathNot: layer('db').path },
    },
    {
      name: 'api-migrations-are-frozen',
      severity: 'error',
      comment:
        'A migration imports only the Migration type, the Dialect type and the frozen column types: never application code and never another migration, so editing one can never change what another did.',
      from: { path: `${API}db/migrations/(\\d{4}-|frozen-)` },
      to: { path: API, pathNot: `${API}db/(migrations/(migration|frozen-column-types)|dialect)\\.ts$` },
    },
    ...layerRules(),
    {
      name: 'api-no-door-imports-the-cli',
      severity: 'error',
      comment: 'The CLI is a door of its own; nothing in the server imports it.',
      from: { path: API, pathNot: layer('cli').path },
      to: { path: layer('cli').path },
    },
    // ---- web ----
    {
      name: 'web-shared-folders-import-no-feature',
      severity: 'error',
      comment: 'lib/, i18n/ and components/ are shared by every feature, so they never import one.',
      from: { path: '^apps/web/src/(lib|i18n|components)/' },
      to: { path: '^apps/web/src/(features|layout)/|^apps/web/src/(router|app|app-providers|main)\\.tsx$' },
    },
    {
      name: 'web-features-import-no-app-shell',
      severity: 'error',
      comment: 'A feature is mounted by the router; it never imports the router, the app or the layout.',
      from: { path: '^apps/web/src/features/' },
      to: { path: '^apps/web/src/(layout)/|^apps/web/src/(router|app|main)\\.tsx$' },
    },
    {
      name: 'web-features-share-only-public-pieces',
      severity: 'error',
      comment:
        "A feature uses another feature only through the pieces it offers (FEATURE_PUBLIC in .dependency-cruiser.cjs): never another feature's list, page internals or helpers. What two features share goes to lib/ or components/.",
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: {
        path: '^apps/web/src/features/',
        pathNot: ['^apps/web/src/features/$1/', ...featurePublic],
      },
    },
  ],
  options: {
    // Type-only imports count: a type import is a dependency of the design too.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // Tests and their support sit above everything they test; the rules are about the product's code.
    // node_modules stays in the graph (not followed): the rules across workspaces and on React see it.
    exclude: { path: '(^|/)dist/|\\.test\\.tsx?$|\\.test-support\\.tsx?$|^apps/web/src/test/' },
    // A workspace package (@app/contracts, @app/api/router) is reached as node_modules/@app/<name>/…:
    // not followed, so an app's layering stops at it, and the rules across workspaces can name it.
    preserveSymlinks: true,
    enhancedResolveOptions: {
      // Packages are reached through their `exports` (@app/api offers ./router alone).
      exportsFields: ['exports'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      mainFields: ['module', 'main', 'types'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
