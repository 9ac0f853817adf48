import { randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS } from '@app/contracts';
import { Secret, TOTP } from 'otpauth';
import { hashSecret } from './secrets.js';

/** RFC 6238 as every authenticator app reads an `otpauth://` URL without options: SHA-1, 6 digits, 30 s. */
const PERIOD_SECONDS = 30;
/**
 * Codes of the step before and after the current one are taken too: a phone's clock a few
 * seconds off, or a code typed as it rolled over, still signs in (RFC 6238 §5.2 suggests one step).
 */
const WINDOW_STEPS = 1;

const totpOf = (secret: string, label = '', issuer = '') =>
  new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/** A new TOTP secret: 160 random bits (RFC 4226's recommended length), in base32 as apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The `otpauth://totp/…` URL a QR code carries: the product as issuer, the account's e-mail as label. */
export const otpauthUrl = (secret: string, email: string, issuer: string): string =>
  totpOf(secret, email, issuer).toString();

/** The time step a moment falls in. */
export const stepAt = (now: Date): number => Math.floor(now.getTime() / 1000 / PERIOD_SECONDS);

/**
 * The time step whose code `code` is, within a step either side of `now`; null when none
 * matches. Whether that step was used already is the caller's to decide (domain/two-factor.ts).
 */
export function matchedStep(secret: string, code: string, now: Date): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: now.getTime(), window: WINDOW_STEPS });
  return delta === null ? null : stepAt(now) + delta;
}

/** base32's lower-case alphabet: no 0/1/8/9, so no code is misread between O and 0, I and 1. */
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** Ten recovery codes of 50 random bits each, written `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((b) => RECOVERY_ALPHABET[b % 32]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/**
 * What is stored of a recovery code, from its normalised form (RecoveryCodeSchema: lower case, no
 * dash). A fast hash suffices: 50 random bits, each code used once and the tries rate-limited.
 */
export const recoveryCodeHash = (normalised: string): string => hashSecret(`recovery:${normalised}`);
