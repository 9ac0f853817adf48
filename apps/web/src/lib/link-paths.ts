/** The pages reached without a session from the sign-in page and from mails' links (SPEC §14). */
export const FORGOT_PASSWORD_PATH = '/forgot-password';
export const INVITE_PATH = '/invite/:token';
export const RESET_PASSWORD_PATH = '/reset-password/:token';
