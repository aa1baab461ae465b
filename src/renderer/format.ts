/** Display formats: one place so every screen shows money, dates and counts the same way. */

/** Money is shown as core and the CLI show it: src/shared/money.ts. */
export { formatUsd as usd, unitsText as units } from '../shared/money';

export function count(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  if (value >= 10_000) return `${Math.round(value / 1000)}k`;
  return value.toLocaleString('en-US');
}

/** A count with its noun ("1 report", "3 reports"): the one place the window chooses singular or plural. */
export function plural(value: number, one: string, many = `${one}s`): string {
  return `${value.toLocaleString('en-US')} ${pluralWord(value, one, many)}`;
}

/** The word alone, for agreement ("it is" / "they are"). */
export function pluralWord(value: number, one: string, many = `${one}s`): string {
  return value === 1 ? one : many;
}

export function day(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 10);
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function shortAddress(address: string | null | undefined): string {
  if (!address) return '—';
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** A transaction hash as 0x1234ab…cdef: enough to recognise, the whole one is copied or shown on hover. */
export function shortHash(hash: string): string {
  return hash.length > 18 ? `${hash.slice(0, 8)}…${hash.slice(-6)}` : hash;
}

export function networkName(network: string): string {
  switch (network) {
    case 'eip155:8453':
      return 'Base';
    case 'eip155:84532':
      return 'Base Sepolia';
    case 'eip155:31337':
      return 'Local demo chain';
    default:
      return network;
  }
}

/** Field names like `notablePosts` as headings: "Notable posts". */
export function humanize(key: string): string {
  const spaced = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}
