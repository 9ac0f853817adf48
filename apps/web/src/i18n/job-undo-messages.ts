import { formatCount } from './list-strings';

const users = (count: number) => `${formatCount(count)} ${count === 1 ? 'user' : 'users'}`;

/**
 * Undoing a job from its page, or an import from the import page (SPEC §14, "Mass changes"): a
 * dry run first, whose counts and reasons the confirmation shows, then the undo.
 */
export const jobUndoMessages = {
  button: 'Undo this job',
  title: 'Undo this job?',
  description: 'Each user the job changed gets the opposite change, under the same rules as any change.',
  confirm: 'Undo job',
  done: 'This job has been undone.',
  /** An import's undo, in its own words. */
  import: {
    button: 'Undo this import',
    title: 'Undo this import?',
    description:
      'Users it added are moved to the trash and users it updated get their previous values back. Users changed since are left alone and reported.',
    confirm: 'Undo import',
    done: 'This import has been undone.',
  },
  until: (time: string) => `You can undo it until ${time}.`,
  checking: 'Checking what the undo would do…',
  wouldRemove: (count: number) => `${users(count)} would be moved to the trash.`,
  wouldChange: (count: number) => `${users(count)} would be put back.`,
  wouldSkip: (count: number) => `${users(count)} would be left as they are:`,
  reasonsLabel: 'Why users would be left as they are',
  reason: (label: string, count: number) => `${label}: ${formatCount(count)}`,
  seeWho: 'See who, and why',
  nothing: 'Nothing would be undone: every user was changed since, or the rules refuse.',
  checkFailed: 'The check could not finish. Try again.',
  started: 'The undo has started.',
  viewUndo: 'Follow the undo',
};
