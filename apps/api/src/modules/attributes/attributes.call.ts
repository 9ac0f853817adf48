import type { HandlerContext } from '../../context.js';

/** What every attribute handler is called with: a caller holding `attributes.manage` (a request, or the CLI's operator). */
export interface ManageCall<Input> {
  ctx: HandlerContext;
  input: Input;
}
