/** The first-party library secret, presented as a bearer token or in X-Library-Secret. */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export function presentedLibrarySecret(headers: IncomingHttpHeaders): string | null {
  const explicit = headers['x-library-secret'];
  if (typeof explicit === 'string' && explicit.length > 0) return explicit;
  const authorization = headers['authorization'];
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match?.[1]) return match[1];
  }
  return null;
}

export function librarySecretMatches(presented: string, expected: string): boolean {
  // Hash both sides so the comparison is constant-time whatever the lengths.
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
