import { SCIM_SCHEMAS, type ScimErrorBody, type ScimErrorType } from '@app/contracts';

/**
 * A refusal in SCIM's shape (RFC 7644 §3.12): the SCIM door throws these, and turns the
 * product's own AppErrors into them at its edge, so an identity provider always reads
 * `{schemas, status, scimType?, detail}`.
 */
export class ScimError extends Error {
  readonly status: number;
  readonly scimType: ScimErrorType | undefined;

  constructor(status: number, detail: string, scimType?: ScimErrorType) {
    super(detail);
    this.name = 'ScimError';
    this.status = status;
    this.scimType = scimType;
  }

  toBody(): ScimErrorBody {
    return {
      schemas: [SCIM_SCHEMAS.error],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: this.message,
    };
  }
}

export const invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter');
export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const invalidSyntax = (detail: string) => new ScimError(400, detail, 'invalidSyntax');
export const invalidPath = (detail: string) => new ScimError(400, detail, 'invalidPath');
export const noTarget = (detail: string) => new ScimError(400, detail, 'noTarget');
export const mutability = (detail: string) => new ScimError(400, detail, 'mutability');
