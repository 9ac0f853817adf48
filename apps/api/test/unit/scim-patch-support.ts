import { SCIM_SCHEMAS } from '@app/contracts';
import { ScimError } from '../../src/scim/scim-error.js';
import type { ScimUserWritable } from '../../src/scim/patch/user-patch.js';

/** A PatchOp body as identity providers send it. */
export const patchOp = (...Operations: unknown[]) => ({ schemas: [SCIM_SCHEMAS.patchOp], Operations });

/** The refusal a call throws, as the SCIM door would answer it (status and scimType). */
export function refusal(run: () => unknown): { status: number; scimType: string | undefined } {
  try {
    run();
  } catch (error) {
    if (error instanceof ScimError) return { status: error.status, scimType: error.scimType };
    throw error;
  }
  throw new Error('expected a ScimError, nothing was thrown');
}

export const ada = (): ScimUserWritable => ({
  userName: 'ada@example.com',
  externalId: 'okta-00u1',
  name: { formatted: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace' },
  displayName: 'Ada Lovelace',
  emails: [
    { value: 'ada@example.com', type: 'work', primary: true },
    { value: 'ada@home.example', type: 'home' },
  ],
  active: true,
  enterprise: { department: 'Engines' },
});
