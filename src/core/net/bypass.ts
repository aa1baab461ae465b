/**
 * Which addresses skip the proxy: this computer always (decision 0046: plain http is allowed there only because
 * it never leaves the machine, and a proxy would carry it off), then the "no proxy" entries as curl reads them.
 */
import net from 'node:net';

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host === '::1';
}

function ipv4Number(address: string): number {
  return address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

function inRange(hostname: string, range: string): boolean {
  const [base = '', bits = ''] = range.split('/');
  const prefix = Number(bits);
  if (!net.isIPv4(hostname) || !net.isIPv4(base) || prefix > 32) return false;
  const size = 2 ** (32 - prefix);
  return Math.floor(ipv4Number(hostname) / size) === Math.floor(ipv4Number(base) / size);
}

/** An entry's host (IPv6 in brackets, as URL.hostname has it) and port, when it names one. */
function splitEntry(entry: string): { name: string; port: string | undefined } {
  if (net.isIPv6(entry)) return { name: `[${entry}]`, port: undefined };
  const parts = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry);
  return { name: parts?.[1] ?? entry, port: parts?.[2] };
}

function matches(hostname: string, port: string, entry: string): boolean {
  if (entry === '*') return true;
  if (entry.includes('/')) return inRange(hostname, entry);
  const { name, port: entryPort } = splitEntry(entry);
  if (entryPort !== undefined && entryPort !== port) return false;
  const domain = name.replace(/^\*?\./, '');
  return hostname === domain || hostname.endsWith(`.${domain}`);
}

/** True when a connection to `url` goes straight to it, not through the proxy. */
export function bypassesProxy(url: URL, noProxy: readonly string[]): boolean {
  const hostname = url.hostname.toLowerCase();
  if (isLoopback(hostname)) return true;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return noProxy.some((entry) => matches(hostname, port, entry));
}
