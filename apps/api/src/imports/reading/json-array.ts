import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { jsonParser, type Token } from 'stream-json/parser.js';
import { ImportFileError, cellTooLong } from './errors.js';
import { type JsonItem, itemOf } from './json-values.js';

/** Deeper than this, an element is not a person's record (and building it would cost memory). */
const MAX_DEPTH = 32;

type Container =
  | { kind: 'object'; value: Map<string, unknown>; key: string | null }
  | { kind: 'array'; value: unknown[] };

function notAnArray(): ImportFileError {
  return new ImportFileError('MALFORMED', 'The JSON file must hold one array of objects.');
}

/** stream-json's tokenizer answers a chunk with a batch of tokens (`many`) or nothing. */
function tokensOf(result: unknown): Token[] {
  return typeof result === 'object' && result !== null && 'values' in result ? (result.values as Token[]) : [];
}

/**
 * Elements of a top-level JSON array, assembled from stream-json's tokens. Its bare tokenizer
 * is called on each decoded chunk (its stream wrapper, one await per token, was ten times
 * slower). Strings and numbers arrive in pieces, so a hostile element is refused by its size
 * before it is held in memory; numbers keep the text they had in the file. No final flush is
 * needed: the array's closing bracket ends every value, and a missing one is caught below.
 * Line = index + 2, as the contract says.
 */
export async function* jsonArrayItems(
  source: Readable,
  maxCellChars: number,
  maxElementChars: number,
): AsyncGenerator<JsonItem> {
  const tokenize = jsonParser({ packValues: false, streamValues: true });
  const decoder = new StringDecoder('utf8');
  let state: 'before' | 'inside' | 'after' = 'before';
  const stack: Container[] = [];
  let text = '';
  let elementChars = 0;
  let index = 0;
  const line = () => index + 2;

  const place = (value: unknown): JsonItem | null => {
    const top = stack.at(-1);
    if (!top) {
      const item = itemOf(line(), value);
      index++;
      elementChars = 0;
      return item;
    }
    if (top.kind === 'array') top.value.push(value);
    else if (top.key !== null) {
      top.value.set(top.key, value);
      top.key = null;
    }
    return null;
  };

  try {
    for await (const chunk of source as AsyncIterable<Buffer>)
      for (const token of tokensOf(tokenize(decoder.write(chunk)))) {
        if (state === 'before') {
          if (token.name === 'whitespace') continue;
          if (token.name !== 'startArray') throw notAnArray();
          state = 'inside';
          continue;
        }
        if (state === 'after') {
          if (token.name === 'whitespace') continue;
          throw notAnArray();
        }
        let done: unknown;
        let complete = false;
        switch (token.name) {
          case 'startObject':
          case 'startArray':
            if (stack.length >= MAX_DEPTH)
              throw new ImportFileError('MALFORMED', `Item ${index + 1} is nested too deep.`, line());
            stack.push(
              token.name === 'startObject'
                ? { kind: 'object', value: new Map(), key: null }
                : { kind: 'array', value: [] },
            );
            break;
          case 'endObject':
          case 'endArray': {
            const closed = stack.pop();
            if (!closed) {
              state = 'after';
              break;
            }
            done = closed.value;
            complete = true;
            break;
          }
          case 'startKey':
          case 'startString':
          case 'startNumber':
            text = '';
            break;
          case 'stringChunk':
          case 'numberChunk':
            text += token.value;
            elementChars += token.value.length;
            if (text.length > maxCellChars) throw cellTooLong(line(), maxCellChars);
            if (elementChars > maxElementChars) {
              throw new ImportFileError('LINE_TOO_LONG', `Item ${index + 1} of the JSON file is too large.`, line());
            }
            break;
          case 'endKey': {
            const top = stack.at(-1);
            if (top?.kind === 'object') top.key = text;
            break;
          }
          case 'endString':
          case 'endNumber':
            done = text;
            complete = true;
            break;
          case 'nullValue':
          case 'trueValue':
          case 'falseValue':
            done = token.value;
            complete = true;
            break;
          default:
            break;
        }
        if (complete) {
          const item = place(done);
          if (item) yield item;
        }
      }
    if (state === 'inside') {
      throw new ImportFileError('MALFORMED', `The JSON file is cut off after item ${index}.`, line());
    }
    if (state !== 'after') throw notAnArray();
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    // The tokenizer fails a whole chunk at once, so no item number would be exact.
    throw new ImportFileError('MALFORMED', 'The file is not valid JSON.');
  } finally {
    source.destroy();
  }
}
