import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { ImportFileError } from './errors.js';

export interface XmlHandlers {
  open?(name: string, attributes: Record<string, string>): void;
  text?(text: string): void;
  close?(name: string): void;
}

/** `x:row` and `row` alike: some writers prefix the SpreadsheetML namespace. */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/**
 * Streams one XML part through saxes (a conforming, non-validating parser that expands no
 * custom entities, so no entity bomb), calling the handlers; `afterChunk` runs after each chunk
 * so a caller can hand out what it collected without waiting for the end of the part.
 */
export async function* streamXml(
  source: Readable,
  handlers: XmlHandlers,
  afterChunk: () => Iterable<unknown> = () => [],
): AsyncGenerator<unknown> {
  const parser = new SaxesParser();
  let failure: Error | null = null;
  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.on('opentag', (tag: SaxesTagPlain) => handlers.open?.(localName(tag.name), tag.attributes));
  if (handlers.text) {
    const onText = handlers.text;
    parser.on('text', onText);
    parser.on('cdata', onText);
  }
  parser.on('closetag', (tag: SaxesTagPlain) => handlers.close?.(localName(tag.name)));
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      parser.write(decoder.write(chunk));
      if (failure) break;
      yield* afterChunk();
    }
    if (!failure) {
      parser.write(decoder.end());
      parser.close();
    }
    if (failure) throw new ImportFileError('UNREADABLE', 'The Excel file is damaged or is not an .xlsx file.');
    yield* afterChunk();
  } finally {
    source.destroy();
  }
}

/** Reads a whole (small) part for its side effects on the handlers. */
export async function readXml(source: Readable, handlers: XmlHandlers): Promise<void> {
  for await (const _ of streamXml(source, handlers)) {
    // Nothing is yielded without afterChunk.
  }
}
