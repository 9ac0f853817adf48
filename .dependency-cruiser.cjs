// The layering of apps/api/src and apps/web/src, checked by `npm run lint` (see docs/decisions.md,
// "Layers point down, and a checker says so"). A rule names what may NOT be imported; what it
// does not forbid is allowed.
//
// API, lowest first:
//   base files (errors, config, logger, version, …) and db/ (Dialect, models, migrations)
//   ← auth/, journal/ (audit rows + outbox), query/, export/, webhooks/ (dispatcher), housekeeping/
//   ← domain/ and policies/ (the rules)  ← modules/ (handlers; *.router.ts wire them to trpc/)
//   ← trpc/ (tRPC kit)  ← rest/ (the REST bridge over the same procedures)
//   ← app/ (the composition root)  ← server.ts ← main.ts;  cli/ and seed/ are doors/tools beside them.
const API = '^apps/api/src/';
const BASE_FILES = `${API}(errors|version|config|config-helpers|users-config|logger|lifecycle|trust-proxy|fastify-refusals|context)\\.ts$`;
const DOORS = `${API}(trpc|rest|app|cli)/|${API}(server|main|request-context|api-scope|bootstrap)\\.ts$`;
const BELOW_MODULES = `${API}(db|auth|journal|query|export|webhooks|housekeeping|domain|policies|seed)/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Modules never import each other in a circle (type-only imports included).',
      from: { path: '^apps/(api|web)/src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'Folders never depend on each other both ways.',
      scope: 'folder',
      from: { path: '^apps/(api|web)/src/' },
      to: { circular: true },
    },
    // ---- API ----
    {
      name: 'api-composition-root-only-from-server',
      severity: 'error',
      comment:
        'Only the server entry imports the composition root (app/); the web imports its type as @app/api/router.',
      from: { path: `^apps/api/src/`, pathNot: `${API}(app/|server\\.ts$)` },
      to: { path: `${API}app/` },
    },
    {
      name: 'api-base-is-the-floor',
      severity: 'error',
      comment: 'The base files import nothing above them but the db types and auth types they describe.',
      from: { path: BASE_FILES },
      to: {
        path: `${API}(modules|domain|policies|trpc|rest|app|cli|journal|webhooks|query|export|housekeeping|seed)/`,
      },
    },
    {
      name: 'api-db-imports-only-db',
      severity: 'error',
      comment: 'db/ is the bottom layer: models, migrations and connections import nothing else of the API.',
      from: { path: `${API}db/` },
      to: { path: API, pathNot: `${API}db/` },
    },
    {
      name: 'api-migrations-are-frozen',
      severity: 'error',
      comment:
        'A migration imports only the Migration type and the Dialect type: never application code and never another migration, so editing one can never change what another did.',
      from: { path: `${API}db/migrations/\\d{4}-` },
      to: { path: API, pathNot: `${API}db/(migrations/migration|dialect)\\.ts$` },
    },
    {
      name: 'api-lower-layers-import-no-module-or-door',
      severity: 'error',
      comment:
        'db, auth, the journal, queries, exports, webhooks, housekeeping, the domain and the seeders sit below modules and doors.',
      from: { path: BELOW_MODULES },
      to: { path: `${API}modules/|${DOORS}` },
    },
    {
      name: 'api-domain-imports-no-transport',
      severity: 'error',
      comment: 'The rules are decided without knowing the door: no tRPC, REST, HTTP context or handler module.',
      from: { path: `${API}(domain|policies)/` },
      to: { path: `${API}(modules|trpc|rest|app|cli)/|${API}(server|main|request-context|api-scope)\\.ts$` },
    },
    {
      name: 'api-handlers-import-no-transport',
      severity: 'error',
      comment:
        "Handlers are door-neutral (tRPC, REST and the CLI call them): only a module's *.router.ts / *.procedures.ts wires them to trpc/.",
      from: { path: `${API}modules/`, pathNot: '(\\.router|procedures)\\.ts$' },
      to: { path: DOORS },
    },
    {
      name: 'api-routers-import-only-the-trpc-kit',
      severity: 'error',
      comment: 'A router wires handlers to the tRPC kit; it never reaches the REST bridge, the root or the CLI.',
      from: { path: `${API}modules/.+\\.(router|procedures)\\.ts$` },
      to: { path: `${API}(rest|app|cli)/|${API}(server|main|request-context|api-scope|bootstrap)\\.ts$` },
    },
    {
      name: 'api-trpc-kit-knows-no-module-nor-rest',
      severity: 'error',
      comment:
        'trpc/ is the kit modules build on; rest/ sits above it. Neither knows a module (the composition root does).',
      from: { path: `${API}(trpc|rest)/` },
      to: { path: `${API}(modules|app|cli)/|${API}(server|main)\\.ts$` },
    },
    {
      name: 'api-trpc-below-rest',
      severity: 'error',
      comment: 'The REST bridge calls tRPC procedures; tRPC never imports the bridge.',
      from: { path: `${API}trpc/` },
      to: { path: `${API}rest/` },
    },
    {
      name: 'api-no-door-imports-the-cli',
      severity: 'error',
      comment: 'The CLI is a door of its own; nothing in the server imports it.',
      from: { path: API, pathNot: `${API}cli/` },
      to: { path: `${API}cli/` },
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
        "A feature uses another feature only through its pages, sections and hooks meant for sharing — never another feature's test helpers or its list internals.",
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: {
        path: '^apps/web/src/features/([^/]+)/(list|.*\\.test\\.tsx?$)',
        pathNot: '^apps/web/src/features/$1/',
      },
    },
  ],
  options: {
    // Type-only imports count: a type import is a dependency of the design too.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // Tests and their support sit above everything they test; the rules are about the product's code.
    exclude: { path: '(^|/)(dist|node_modules)/|\\.test\\.tsx?$|\\.test-support\\.tsx?$|^apps/web/src/test/' },
    // Workspace packages (@app/contracts, @app/api/router) are outside the layering of an app.
    preserveSymlinks: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      mainFields: ['module', 'main', 'types'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
