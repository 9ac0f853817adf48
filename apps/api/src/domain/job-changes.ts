/**
 * What a bulk job changed, user by user, as its report names it (issue 40): the fields before and
 * after (`job_changes`), in the keys the audit uses (`is_active`, `roles`) or plain flags
 * (`deleted`, `erased`), in words.
 */

const yes = (v: unknown) => v === true;

/** The change in words, from what the job changed (one sentence per kind of change). */
export function changeSentence(from: Record<string, unknown>, to: Record<string, unknown>): string {
  if ('is_active' in to) return yes(to.is_active) ? 'Activated.' : 'Deactivated.';
  if ('erased' in to) return 'Erased for good.';
  if ('deleted' in to) return yes(to.deleted) ? 'Moved to the trash.' : 'Restored from the trash.';
  if ('roles' in to) {
    const was = new Set(Array.isArray(from.roles) ? (from.roles as string[]) : []);
    const is = Array.isArray(to.roles) ? (to.roles as string[]) : [];
    const given = is.filter((r) => !was.has(r));
    const taken = [...was].filter((r) => !is.includes(r));
    const parts = [...given.map((r) => `Role “${r}” given.`), ...taken.map((r) => `Role “${r}” taken away.`)];
    return parts.join(' ') || 'Roles unchanged.';
  }
  return 'Changed.';
}
