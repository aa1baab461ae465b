/** Avatars come only from data: URLs (the CSP forbids remote images anyway); anything else gets initials. */
import { useState } from 'react';

function initials(name: string): string {
  const parts = name.split(/[\s_]+/).filter(Boolean);
  const letters = parts.length > 1 ? (parts[0]?.[0] ?? '') + (parts[1]?.[0] ?? '') : name.slice(0, 2);
  return letters.toUpperCase();
}

export function Avatar(props: { url?: string | undefined; name: string; size?: number }) {
  const [broken, setBroken] = useState(false);
  const size = props.size ?? 36;
  const usable = !broken && props.url?.startsWith('data:image/');
  if (usable) {
    return (
      <img
        className="avatar"
        src={props.url}
        alt=""
        width={size}
        height={size}
        onError={() => setBroken(true)}
      />
    );
  }
  return (
    <span className="avatar avatar-initials" style={{ width: size, height: size }} aria-hidden="true">
      {initials(props.name)}
    </span>
  );
}
