import { formatCount } from './list-strings';

const users = (count: number) => `${formatCount(count)} ${count === 1 ? 'user' : 'users'}`;

/** Undoing a bulk job from its page (SPEC §14, "Mass changes"): a dry run first, then the undo. */
export const jobUndoMessages = {
  button: 'Undo this job',
  until: (time: string) => `You can undo it until ${time}.`,
  checking: 'Checking what the undo would do…',
  title: 'Undo this job?',
  description: 'Each user the job changed gets the opposite change, under the same rules as any change.',
  importDescription:
    'Users it added are moved to the trash and users it updated get their previous values back. Users changed since are left alone and reported.',
  wouldChange: (count: number) => `${users(count)} would be put back.`,
  wouldSkip: (count: number) => `${users(count)} would be left as they are (changed since, or the rules refuse).`,
  nothing: 'Nobody would be put back: every user was changed since, or the rules refuse.',
  checkFailed: 'The check could not finish. Try again.',
  confirm: 'Undo job',
  started: 'The undo has started.',
  viewUndo: 'Follow the undo',
  done: 'This job has been undone.',
};
