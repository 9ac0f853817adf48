import { useMemo } from 'react';
import { importsMessages } from '../../i18n/imports-messages';
import { type Messages, useMessages } from '../../i18n/messages';

/**
 * The app's messages with the Import page's own: those travel with the page's lazy chunk, not
 * with every route (the users list's JavaScript budget has no room for another page's strings).
 */
export type ImportPageMessages = Messages & { imports: typeof importsMessages };

export function useImportMessages(): ImportPageMessages {
  const m = useMessages();
  return useMemo(() => ({ ...m, imports: importsMessages }), [m]);
}
