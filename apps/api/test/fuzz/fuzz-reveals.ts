import { SECRET_REVEALING_PROCEDURES, type SecretReveal, withoutRevealed } from '../support/secret-scan.js';
import { findSecrets, type KnownSecrets } from '../support/secrets.js';
import type { Answer, SentRequest, Verdict } from './fuzz-oracle.js';

/** Forms only: the fuzzer's own secrets are looked for separately, verbatim. */
const BY_FORM: KnownSecrets = { passwords: [], randoms: new Map() };

const trpcProcedures = (url: string) => {
  try {
    return decodeURIComponent((url.split('?')[0] ?? '').replace(/^\/api\/trpc\//, '')).split(',');
  } catch {
    return [];
  }
};

/** Blanks, anywhere in `value`, a reveal's field that holds nothing but a secret of its kind. */
function blankEverywhere(value: unknown, reveals: readonly SecretReveal[]): void {
  if (Array.isArray(value)) for (const item of value) blankEverywhere(item, reveals);
  else if (typeof value === 'object' && value !== null) {
    const node = value as Record<string, unknown>;
    for (const [key, item] of Object.entries(node)) {
      const reveal = reveals.find((r) => r.field === key);
      const hits = typeof item === 'string' ? findSecrets(item, BY_FORM) : [];
      if (reveal && hits.length > 0 && hits.every((h) => h.kind === reveal.secret)) node[key] = '[revealed once]';
      else blankEverywhere(item, reveals);
    }
  }
}

/**
 * The body without the secret a revealing procedure shows once, by design, in its successful
 * answer (test/support/secret-scan.ts lists them and says where): only a secret anywhere else
 * is a leak. A streamed tRPC batch nests its results in chunks; there a field of that name
 * holding nothing but such a secret is blanked wherever it sits.
 */
export function withoutRevealedSecret(req: SentRequest, answer: Answer, verdict: Verdict): string {
  if (verdict.door === 'rest') {
    const success = answer.status >= 200 && answer.status < 300;
    return withoutRevealed(answer.body, { door: 'rest', procedure: verdict.procedure, success }, BY_FORM);
  }
  // A tRPC batch answers with one status for calls that each succeeded or failed (here an error's,
  // not 207): each call's own result says whether it succeeded.
  if (req.headers['trpc-accept'] !== 'application/jsonl') {
    return withoutRevealed(answer.body, { door: 'trpc', url: req.url, status: answer.status }, BY_FORM);
  }
  const names = trpcProcedures(req.url);
  const reveals = SECRET_REVEALING_PROCEDURES.filter((r) => names.includes(r.procedure));
  if (reveals.length === 0) return answer.body;
  return answer.body
    .split('\n')
    .map((line) => {
      try {
        const value: unknown = JSON.parse(line);
        blankEverywhere(value, reveals);
        return JSON.stringify(value);
      } catch {
        return line;
      }
    })
    .join('\n');
}
