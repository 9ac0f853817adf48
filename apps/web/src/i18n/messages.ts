import { shellMessages } from './shell-messages';

/** The words every route has: the shell, the users list, the jobs indicator. */
export type Messages = typeof shellMessages;

/** One locale today; the hook is the seam where a locale switch would plug in. */
export function useMessages(): Messages {
  return shellMessages;
}

/**
 * The hook of a lazy page's catalogue: the shell's words and the page's own, under their keys
 * (`m.webhooks.title`, `m.common.cancel`). The page's module imports its catalogue, so the
 * words load with the page's chunk and a component can only read the catalogues it asked for.
 */
export function pageMessages<Own extends object>(own: Own): () => Messages & Own {
  const merged = { ...shellMessages, ...own };
  return () => merged;
}
