import { Skeleton } from '@app/ui';
import { toString as qrSvg } from 'qrcode';
import { useEffect, useState } from 'react';

/**
 * The `otpauth://` URL drawn as a QR code in the browser: the secret never leaves the page for
 * an image service. SVG, so it needs no canvas and stays sharp; a white quiet zone keeps it
 * readable by cameras in the dark theme too.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void qrSvg(value, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }).then((drawn) => {
      if (current) setSvg(drawn);
    });
    return () => {
      current = false;
    };
  }, [value]);

  if (!svg) return <Skeleton className="size-48 rounded-lg" />;
  return (
    <img
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={label}
      width={192}
      height={192}
      className="size-48 rounded-lg border border-border bg-white"
    />
  );
}
