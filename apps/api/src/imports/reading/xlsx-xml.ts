import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { ImportFileError } from './errors.js';

export interface XmlHandlers {
  open?(name: string, attributes: Record<string, string>): void;
  text?(text: string): void;
  close?(name: string): void;
  /**
   * Called as the part is fed to the parser with the characters of XML it holds since its last
   * event (a text not yet ended, a tag not yet closed): throw to refuse what is too long for
   * where it stands, before the parser has built it.
   */
  pending?(chars: number): void;
}

/**
 * saxes hands over a text, a name or an attribute value only whole, building it in memory first:
 * one text of 600 MB was one string of 600 MB. Nothing in a spreadsheet part comes close to this
 * many characters without a tag (a cell holds at most 32 767), so past it the part is refused.
 */
export const MAX_XML_RUN = 1024 * 1024;
/**
 * Whether a text of `chars` characters, with `pendingXml` more characters of XML still being read
 * into it, must pass `maxChars`: a character takes at most six of XML (`&quot;`; a character
 * reference padded with zeros aside, which no writer emits), so this is known before the parser
 * has built the text.
 */
export const cannotFit = (chars: number, pendingXml: number, maxChars: number) =>
  chars + Math.ceil(pendingXml / 6) > maxChars;

/** Characters handed to the parser at once, so a run is caught within this many of its limit. */
const PIECE = 16 * 1024;
/**
 * Elements open at once. SpreadsheetML nests about eight deep (worksheet, sheetData, row, c, is,
 * r, t); the parser keeps every open element, so a part of nothing but opening tags is a bomb.
 */
const MAX_DEPTH = 64;

function runTooLong(): ImportFileError {
  return new ImportFileError(
    'UNREADABLE',
    `The Excel file holds more than ${MAX_XML_RUN.toLocaleString('en-US')} characters of XML in one piece (a text or a tag); no spreadsheet writes that.`,
  );
}

function tooDeep(): ImportFileError {
  return new ImportFileError(
    'UNREADABLE',
    `The Excel file nests XML elements more than ${MAX_DEPTH} deep; no spreadsheet writes that.`,
  );
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
  // Where the parser stood at its last event: what it holds beyond is still being built.
  let mark = 0;
  let depth = 0;
  const moved = () => {
    mark = parser.position;
  };
  parser.on('error', (error) => {
    failure ??= error;
  });
  // A tag counts whole, its attributes with it: a tag of a million attributes is a bomb too.
  parser.on('opentag', (tag: SaxesTagPlain) => {
    moved();
    if (++depth > MAX_DEPTH) throw tooDeep();
    handlers.open?.(localName(tag.name), tag.attributes);
  });
  const onText = (text: string) => {
    moved();
    handlers.text?.(text);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag: SaxesTagPlain) => {
    moved();
    depth--;
    handlers.close?.(localName(tag.name));
  });
  for (const event of ['comment', 'processinginstruction', 'doctype', 'xmldecl'] as const) parser.on(event, moved);
  const feed = (text: string) => {
    for (let at = 0; at < text.length && !failure; at += PIECE) {
      parser.write(text.slice(at, at + PIECE));
      const pending = parser.position - mark;
      handlers.pending?.(pending);
      if (pending > MAX_XML_RUN) throw runTooLong();
    }
  };
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      feed(decoder.write(chunk));
      if (failure) break;
      yield* afterChunk();
    }
    if (!failure) {
      feed(decoder.end());
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
