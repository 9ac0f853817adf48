import { en, type Messages } from './en';

/** One locale today; the hook is the seam where a locale switch would plug in. */
export function useMessages(): Messages {
  return en;
}

export { en, type Messages };
