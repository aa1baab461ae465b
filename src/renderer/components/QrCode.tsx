/** A QR code drawn as SVG from uqr's module matrix: React elements only, no HTML string is injected. */
import { useMemo } from 'react';
import { encode } from 'uqr';

export function QrCode(props: { value: string; label: string; size?: number }) {
  const path = useMemo(() => {
    const { data } = encode(props.value, { ecc: 'M', border: 2 });
    const modules = data.flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : '')));
    return { d: modules.join(''), size: data.length };
  }, [props.value]);
  return (
    <svg
      className="qr"
      role="img"
      aria-label={props.label}
      viewBox={`0 0 ${path.size} ${path.size}`}
      width={props.size ?? 220}
      height={props.size ?? 220}
      shapeRendering="crispEdges"
    >
      <rect width={path.size} height={path.size} fill="#fff" />
      <path d={path.d} fill="#000" />
    </svg>
  );
}
