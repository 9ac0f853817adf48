import type { SVGProps } from 'react';

/**
 * Glyphs of the form parts and alerts. Inline (lucide's paths, ISC licence) so this package needs
 * no icon dependency; always decorative — the control or text around them carries the meaning.
 */
function Glyph({ children, className, ...rest }: SVGProps<SVGSVGElement>) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className ?? 'size-4 shrink-0'}
      {...rest}
    >
      {children}
    </svg>
  );
}

type GlyphProps = SVGProps<SVGSVGElement>;

export const EyeGlyph = (p: GlyphProps) => (
  <Glyph {...p}>
    <path d="M2.06 12.35a1 1 0 0 1 0-.7 10.75 10.75 0 0 1 19.88 0 1 1 0 0 1 0 .7 10.75 10.75 0 0 1-19.88 0" />
    <circle cx="12" cy="12" r="3" />
  </Glyph>
);
export const EyeOffGlyph = (p: GlyphProps) => (
  <Glyph {...p}>
    <path d="M10.73 5.08A10.43 10.43 0 0 1 12 5c4.4 0 8.2 2.6 9.94 6.65a1 1 0 0 1 0 .7 10.8 10.8 0 0 1-1.44 2.49" />
    <path d="M14.08 14.16a3 3 0 0 1-4.2-4.2" />
    <path d="M17.48 17.5A10.75 10.75 0 0 1 2.06 12.35a1 1 0 0 1 0-.7 10.7 10.7 0 0 1 4.45-5.14" />
    <path d="m2 2 20 20" />
  </Glyph>
);
export const AlertCircleGlyph = (p: GlyphProps) => (
  <Glyph {...p}>
    <circle cx="12" cy="12" r="10" />
    <path d="M12 8v4M12 16h.01" />
  </Glyph>
);
export const AlertTriangleGlyph = (p: GlyphProps) => (
  <Glyph {...p}>
    <path d="m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3" />
    <path d="M12 9v4M12 17h.01" />
  </Glyph>
);
export const InfoGlyph = (p: GlyphProps) => (
  <Glyph {...p}>
    <circle cx="12" cy="12" r="10" />
    <path d="M12 16v-4M12 8h.01" />
  </Glyph>
);
export const CheckCircleGlyph = (p: GlyphProps) => (
  <Glyph {...p}>
    <circle cx="12" cy="12" r="10" />
    <path d="m9 12 2 2 4-4" />
  </Glyph>
);
export const LockGlyph = (p: GlyphProps) => (
  <Glyph {...p}>
    <rect width="18" height="11" x="3" y="11" rx="2" ry="2" />
    <path d="M7 11V7a5 5 0 0 1 10 0v4" />
  </Glyph>
);
export const CheckGlyph = (p: GlyphProps) => (
  <Glyph {...p}>
    <path d="M20 6 9 17l-5-5" />
  </Glyph>
);
