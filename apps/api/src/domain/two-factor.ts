import type { ErrorCode } from '@app/contracts';

/** Where a user's second factor stands, as read under the user's lock. */
export interface TwoFactorFacts {
  /** A secret is stored: pending until confirmed, then enrolled. */
  hasSecret: boolean;
  enrolled: boolean;
}

export interface TwoFactorRefusal {
  code: ErrorCode;
  message: string;
}

const refusal = (code: ErrorCode, message: string): TwoFactorRefusal => ({ code, message });

/**
 * What each step of the second factor's life needs, in one place: setting one up while one is on
 * would silently replace the app a person relies on (they turn it off first, proving a code);
 * confirming needs a set-up waiting; turning off or resetting needs one that is there.
 */
export function twoFactorRefusal(
  step: 'setup' | 'confirm' | 'disable' | 'reset',
  facts: TwoFactorFacts,
): TwoFactorRefusal | null {
  if (step === 'setup' || step === 'confirm') {
    if (facts.enrolled) {
      return refusal(
        'TWO_FACTOR_ENROLLED',
        'Two-factor sign-in is already on. Turn it off first to set up another app.',
      );
    }
    if (step === 'confirm' && !facts.hasSecret) {
      return refusal('TWO_FACTOR_NOT_PENDING', 'There is no set-up waiting for a code. Start the set-up again.');
    }
    return null;
  }
  if (step === 'disable' && !facts.enrolled) {
    return refusal('TWO_FACTOR_NOT_ENROLLED', 'Two-factor sign-in is not on for this account.');
  }
  if (step === 'reset' && !facts.hasSecret) {
    return refusal('TWO_FACTOR_NOT_ENROLLED', 'This user has no second factor to reset.');
  }
  return null;
}
