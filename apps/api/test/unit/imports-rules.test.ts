import { IMPORT_MODES, type Permission } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/auth/actor.js';
import { type ImportAsked, importChoices, importRefusal } from '../../src/domain/imports.rules.js';
import { lackingForJob } from '../../src/domain/jobs.rules.js';

/** The permissions an import can ask, and every set of them an actor can hold. */
const ASKED: Permission[] = ['users.create', 'users.update', 'users.setActive', 'users.restore'];
const holdings: Permission[][] = Array.from({ length: 2 ** ASKED.length }, (_, bits) =>
  ASKED.filter((_, i) => bits & (1 << i)),
);
const actorHolding = (held: Permission[]): Actor => ({
  id: 1,
  name: 'A',
  email: 'a@example.com',
  permissions: new Set(held),
});

const everyImport: ImportAsked[] = IMPORT_MODES.flatMap((mode) =>
  [true, false].flatMap((activate) => [true, false].map((restore) => ({ mode, activate, restore }))),
);

describe('an import’s choices (domain/imports.rules.ts)', () => {
  it('refuses exactly what the jobs’ permission table refuses, naming the same permission', () => {
    for (const held of holdings) {
      const actor = actorHolding(held);
      for (const asked of everyImport) {
        const lacking = lackingForJob(actor, { kind: 'import', ...asked });
        const refusal = importRefusal(actor, asked);
        expect(refusal?.permission ?? null, `${held.join('+')} ${JSON.stringify(asked)}`).toBe(lacking);
        if (refusal)
          expect(refusal).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining(lacking ?? '') });
      }
    }
  });

  it('offers choices that add up: a mix of allowed ones is allowed, a mix with a refused one is refused', () => {
    for (const held of holdings) {
      const actor = actorHolding(held);
      const { modes, options } = importChoices(actor);
      for (const asked of everyImport) {
        const offered =
          modes[asked.mode].allowed &&
          (asked.activate || options.inactive.allowed) &&
          (!asked.restore || options.restore.allowed);
        expect(importRefusal(actor, asked) === null, `${held.join('+')} ${JSON.stringify(asked)}`).toBe(offered);
      }
    }
  });
});
