import { withoutRevealed } from '../support/secret-scan.js';
import type { KnownSecrets } from '../support/secrets.js';
import type { Answer, SentRequest, Verdict } from './fuzz-oracle.js';

/** Forms only: the fuzzer's own secrets are looked for separately, verbatim. */
const BY_FORM: KnownSecrets = { passwords: [], randoms: new Map() };

/**
 * The body without the secret a revealing procedure shows once, by design, in its successful
 * answer (test/support/secret-scan.ts lists them and says where): only a secret anywhere else
 * is a leak. The capture's scan at the end of the run reads answers the same way.
 */
export function withoutRevealedSecret(req: SentRequest, answer: Answer, verdict: Verdict): string {
  if (verdict.door === 'rest') {
    const success = answer.status >= 200 && answer.status < 300;
    return withoutRevealed(answer.body, { door: 'rest', procedure: verdict.procedure, success }, BY_FORM);
  }
  // A tRPC batch answers with one status for calls that each succeeded or failed (here an error's,
  // not 207): each call's own result says whether it succeeded.
  return withoutRevealed(answer.body, { door: 'trpc', url: req.url, status: answer.status }, BY_FORM);
}
