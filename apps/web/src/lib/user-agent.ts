import Bowser from 'bowser';

export type DeviceKind = 'desktop' | 'mobile' | 'tablet' | 'other';

/** What a user agent says about the device, in the parts a sentence needs ("Chrome on Linux"). */
export interface DeviceDescription {
  /** The browser ("Chrome"), or for a script its product name ("curl"); null when nothing is readable. */
  client: string | null;
  os: string | null;
  kind: DeviceKind;
}

const NOTHING: DeviceDescription = { client: null, os: null, kind: 'other' };

/** `curl/8.5.0` → `curl`: what a script or library calls itself, when no browser is recognised. */
function productOf(userAgent: string): string | null {
  const first = userAgent.trim().split(/\s+/)[0]?.split('/')[0] ?? '';
  // A bare "Mozilla" says nothing; a token of letters (and dots, dashes) is a name worth showing.
  return first && first !== 'Mozilla' && /^[A-Za-z][\w.-]{0,39}$/.test(first) ? first : null;
}

/**
 * Names the browser and system of a stored user agent with bowser (a maintained parser); a
 * non-browser client keeps its own product name. Never throws: an empty or odd string is "unknown".
 */
export function describeUserAgent(userAgent: string | null | undefined): DeviceDescription {
  if (!userAgent?.trim()) return NOTHING;
  try {
    const parsed = Bowser.parse(userAgent);
    const client = parsed.browser.name || productOf(userAgent);
    const os = parsed.os.name || null;
    const type = parsed.platform.type;
    const kind: DeviceKind = type === 'desktop' || type === 'mobile' || type === 'tablet' ? type : 'other';
    return { client: client || null, os, kind };
  } catch {
    return { ...NOTHING, client: productOf(userAgent) };
  }
}
