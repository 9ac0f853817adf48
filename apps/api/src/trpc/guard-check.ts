import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { ProcedureMeta } from './init.js';

/**
 * Every procedure must say who may call it: `public: true`, or built from `protectedProcedure`
 * / `can()`. Checked when the app is built, so an unguarded procedure cannot ship by accident.
 */
function unguardedProcedures(router: AnyRouter): string[] {
  const procedures = router._def.procedures as Record<string, AnyProcedure>;
  return Object.entries(procedures)
    .filter(([, p]) => {
      const meta = p._def.meta as ProcedureMeta | undefined;
      return !meta?.public && !meta?.authenticated;
    })
    .map(([path]) => path);
}

export function assertEveryProcedureGuarded(router: AnyRouter): void {
  const unguarded = unguardedProcedures(router);
  if (unguarded.length) {
    throw new Error(`Procedures without an access rule (public, protectedProcedure or can()): ${unguarded.join(', ')}`);
  }
}
