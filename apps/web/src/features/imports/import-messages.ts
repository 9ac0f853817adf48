import { importsMessages } from '../../i18n/imports-messages';
import { pageMessages } from '../../i18n/messages';

/**
 * The app's messages with the Import page's own: those travel with the page's lazy chunk, not
 * with every route (the users list's JavaScript budget has no room for another page's strings).
 */
export const useImportMessages = pageMessages({ imports: importsMessages });
export type ImportPageMessages = ReturnType<typeof useImportMessages>;
