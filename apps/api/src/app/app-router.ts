import { accountRouter } from '../modules/account/account.router.js';
import { auditRouter } from '../modules/audit/audit.router.js';
import { authRouter } from '../modules/auth/auth.router.js';
import { attributesRouter } from '../modules/attributes/attributes.router.js';
import { scimMappingRouter } from '../modules/scim-mapping/scim-mapping.router.js';
import { authProvidersRouter } from '../modules/auth-providers/auth-providers.router.js';
import { importsRouter } from '../modules/imports/imports.router.js';
import { invitationsRouter } from '../modules/invitations/invitations.router.js';
import { jobsRouter } from '../modules/jobs/jobs.router.js';
import { passwordResetRouter } from '../modules/password-reset/password-reset.router.js';
import { permissionsRouter } from '../modules/permissions/permissions.router.js';
import { rolesRouter } from '../modules/roles/roles.router.js';
import { sessionsRouter } from '../modules/sessions/sessions.router.js';
import { createSystemRouter } from '../modules/system/system.router.js';
import { tokensRouter } from '../modules/tokens/tokens.router.js';
import { twoFactorRouter } from '../modules/two-factor/two-factor.router.js';
import { usersRouter } from '../modules/users/users.router.js';
import { webhooksRouter } from '../modules/webhooks/webhooks.router.js';
import { buildOpenApiDocument, type OpenApiDocument } from '../rest/openapi.js';
import { withScimDoor } from '../rest/openapi-scim.js';
import { router } from '../trpc/init.js';
import { APP_VERSION } from '../version.js';

/**
 * The composition root: the one place that knows every module and both doors. Nothing under
 * src/ imports it except the server; the web imports its type as `@app/api/router`.
 */
let openApiDocument: OpenApiDocument | undefined;

// The document describes the router that serves it, so it is built on first request (the router
// exists by then) and kept: routes cannot change while the process runs. The SCIM door is no
// procedure: its operations are declared beside the generator and added here.
const describeApi = (): OpenApiDocument => {
  openApiDocument ??= withScimDoor(buildOpenApiDocument(appRouter, { version: APP_VERSION }));
  return openApiDocument;
};

export const appRouter = router({
  system: createSystemRouter(describeApi),
  auth: authRouter,
  users: usersRouter,
  roles: rolesRouter,
  permissions: permissionsRouter,
  audit: auditRouter,
  tokens: tokensRouter,
  sessions: sessionsRouter,
  webhooks: webhooksRouter,
  jobs: jobsRouter,
  imports: importsRouter,
  invitations: invitationsRouter,
  passwordReset: passwordResetRouter,
  authProviders: authProvidersRouter,
  attributes: attributesRouter,
  scimMapping: scimMappingRouter,
  account: accountRouter,
  twoFactor: twoFactorRouter,
});

export type AppRouter = typeof appRouter;
