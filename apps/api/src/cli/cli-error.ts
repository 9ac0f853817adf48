/** A refusal the operator can act on: printed as one line, exit code 1, no stack trace. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

export interface CliIO {
  out(line: string): void;
  err(line: string): void;
}
