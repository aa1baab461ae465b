/** The one key a handle is compared by: "@Alice " and "alice" are the same handle. */
export function handleKey(raw: string): string {
  return raw.trim().replace(/^@/, '').toLowerCase();
}
