import { PERMISSIONS, type Permission, type TokenCreateInput, TokenCreateInputSchema } from '@app/contracts';
import type { FieldErrors, Resolver } from 'react-hook-form';
import type { TokensPageMessages } from '../../i18n/tokens-messages';

export const EXPIRY_CHOICES = ['30', '90', '365', 'custom', 'never'] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

/** What the create dialog edits; `toTokenInput` turns it into what `tokens.create` takes. */
export interface TokenFormValues {
  name: string;
  expiry: ExpiryChoice;
  /** `YYYY-MM-DD`, read when `expiry` is `custom`. */
  customDate: string;
  narrow: boolean;
  scopes: Permission[];
}

export const EMPTY_TOKEN_FORM: TokenFormValues = {
  name: '',
  expiry: '90',
  customDate: '',
  narrow: false,
  scopes: [],
};

const DAY_MS = 86_400_000;

/**
 * The expiry the choice stands for: a number of days from now, the end of a chosen day in the
 * viewer's time zone (a token "until 31 March" works all that day), or null for none.
 */
export function expiresAtOf(values: Pick<TokenFormValues, 'expiry' | 'customDate'>, now = Date.now()): string | null {
  if (values.expiry === 'never') return null;
  if (values.expiry === 'custom') {
    const end = new Date(`${values.customDate}T23:59:59.999`);
    return Number.isNaN(end.getTime()) ? null : end.toISOString();
  }
  return new Date(now + Number(values.expiry) * DAY_MS).toISOString();
}

export function toTokenInput(values: TokenFormValues, now = Date.now()): TokenCreateInput {
  return {
    name: values.name,
    expires_at: expiresAtOf(values, now),
    // Kept in the catalogue's order, whatever order they were ticked in.
    scopes: values.narrow ? PERMISSIONS.filter((p) => values.scopes.includes(p)) : null,
  };
}

/** The form's field for an issue the contract reports on the input. */
const FIELD_OF: Record<string, keyof TokenFormValues> = { name: 'name', expires_at: 'customDate', scopes: 'scopes' };

/**
 * Validates with the contract's own schema, so the dialog says what the server would; only the
 * missing custom date, which the contract cannot see, has a message of ours.
 */
export function tokenFormResolver(m: TokensPageMessages): Resolver<TokenFormValues, unknown, TokenCreateInput> {
  return async (values) => {
    const errors: FieldErrors<TokenFormValues> = {};
    const input = toTokenInput(values);
    if (values.expiry === 'custom' && !values.customDate) {
      errors.customDate = { type: 'required', message: m.tokens.form.customDateRequired };
    }
    const parsed = TokenCreateInputSchema.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = FIELD_OF[String(issue.path[0])];
        if (field && !errors[field]) errors[field] = { type: 'validate', message: issue.message };
        // An issue about the input as a whole: the dialog's banner (react-hook-form's root error).
        else if (!field) errors.root = { type: 'validate', message: issue.message } as FieldErrors['root'];
      }
    }
    return parsed.success && Object.keys(errors).length === 0
      ? { values: parsed.data, errors: {} }
      : { values: {}, errors };
  };
}
