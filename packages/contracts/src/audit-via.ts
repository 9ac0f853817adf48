import { z } from 'zod';

// A module of its own: jobs name how they came in the same way, and a page that shows a job must
// not load the audit trail's whole contract with it.

/**
 * How the change came in: the SPA (a session), an API token (its name when it still exists), an
 * identity provider over SCIM (with its token's name), the command line, or — for rows written
 * before this was recorded — unknown.
 */
export const AuditViaSchema = z.object({
  kind: z.enum(['session', 'token', 'scim', 'cli', 'unknown']),
  name: z.string().nullable(),
});
export type AuditVia = z.infer<typeof AuditViaSchema>;
