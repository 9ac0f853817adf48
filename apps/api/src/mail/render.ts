import { MAIL_CATALOGUE, type MailTemplate, type MailTemplateVars, PRODUCT_NAME } from './mail-catalogue.js';

/** What a message says, as sent: its subject and its two bodies. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or as a quoted attribute value. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);

const UNTIL = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** A link a mail may carry: absolute http(s). Anything else is the caller's mistake, refused before it is queued. */
function checkedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError('a mail link must be an absolute URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new TypeError('a mail link must be http(s)');
  return url;
}

function untilText(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) throw new TypeError('expires_at must be an ISO 8601 date');
  return `${UNTIL.format(at)} UTC`;
}

/**
 * The subject, plain-text and HTML bodies of `template` with `vars`: the catalogue's words, the
 * product's name and the link. Every variable is escaped in the HTML; the link is written out in
 * full in both bodies, for a client that shows no button.
 */
export function renderMail<T extends MailTemplate>(template: T, vars: MailTemplateVars[T]): RenderedMail {
  const url = checkedUrl(vars.url);
  const words = MAIL_CATALOGUE[template](vars, untilText(vars.expires_at));
  const text = [
    words.greeting,
    '',
    ...words.before,
    '',
    `${words.action}:`,
    url,
    '',
    ...words.after,
    '',
    `— ${PRODUCT_NAME}`,
  ]
    .join('\n')
    .concat('\n');
  const p = (line: string) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`;
  const href = escapeHtml(url);
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(words.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:15px;line-height:1.5;color:#111827">',
    '<div style="max-width:560px;margin:0 auto">',
    p(words.greeting),
    ...words.before.map(p),
    `<p style="margin:24px 0"><a href="${href}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#111827;color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(words.action)}</a></p>`,
    `<p style="margin:0 0 16px;font-size:13px;color:#4b5563">Or open this link: <a href="${href}" style="color:#1d4ed8;word-break:break-all">${href}</a></p>`,
    ...words.after.map(p),
    `<p style="margin:24px 0 0;font-size:13px;color:#6b7280">${escapeHtml(PRODUCT_NAME)}</p>`,
    '</div></body></html>',
  ].join('\n');
  return { subject: words.subject, text, html };
}
