import { TextField, type TextFieldProps } from '@app/ui';

/**
 * Six digits from an authenticator app: a numeric keyboard on phones, and `one-time-code` so
 * the browser or the phone may offer the code itself.
 */
export function CodeField(props: Omit<TextFieldProps, 'type'>) {
  return (
    <TextField
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={6}
      spellCheck={false}
      fieldClassName="max-w-48"
      className="font-mono tracking-[0.3em]"
      {...props}
    />
  );
}

/** What a person typed, as the six digits the server checks (spaces and dashes dropped). */
export function digitsOf(value: string): string {
  return value.replace(/[\s-]/g, '');
}
