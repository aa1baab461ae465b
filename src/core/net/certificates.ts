/**
 * The certificate authorities core trusts beyond Node's own: a PEM file chosen in Settings, and the system's
 * store where the runtime can read it (tls.getCACertificates, Node 22.15 and later; Electron's Node has it, a
 * CLI on Node 20 does not and keeps NODE_EXTRA_CA_CERTS). Behind TLS inspection the inspecting CA is in one of
 * them; without them every https connection fails.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import tls from 'node:tls';
import { DeskError } from '../base/errors';
import type { Environment } from './proxy-route';

type CertificateKind = 'default' | 'system' | 'bundled' | 'extra';
type CertificateReader = (kind: CertificateKind) => string[];

/** tls.getCACertificates where this Node has it (@types/node 20 does not declare it). */
function certificateReader(): CertificateReader | null {
  const reader: unknown = Reflect.get(tls, 'getCACertificates');
  return typeof reader === 'function' ? (kind) => reader.call(tls, kind) as string[] : null;
}

let systemStore: string[] | null | undefined;

/**
 * The system store's certificates, read once (the OS is asked only the first time), or null where this runtime
 * cannot read it: an older Node, or one whose TLS library refuses (then the desk works as before, on Node's).
 */
function systemCertificates(): string[] | null {
  if (systemStore !== undefined) return systemStore;
  try {
    systemStore = certificateReader()?.('system') ?? null;
  } catch {
    systemStore = null;
  }
  return systemStore;
}

export function systemCertificatesAvailable(): boolean {
  return systemCertificates() !== null;
}

/** A CA file past this size is not a bundle of certificates. */
const MAX_CA_FILE_BYTES = 4 * 1024 * 1024;
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function caFileRefusal(file: string, why: string, cause?: unknown): DeskError {
  return new DeskError(
    'ca_file_invalid',
    `The CA certificates file ${file} ${why}. Choose a PEM file of certificates (-----BEGIN CERTIFICATE-----) in Settings → Network, or clear it there; nothing was sent.`,
    'usage',
    { file, notSent: true },
    { cause },
  );
}

/** Every certificate of a PEM file, each checked to parse; a file with none, or a damaged one, is refused. */
export function readCaFile(file: string): string[] {
  let text: string;
  try {
    if (statSync(file).size > MAX_CA_FILE_BYTES) throw caFileRefusal(file, 'is larger than 4 MiB');
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof DeskError) throw error;
    throw caFileRefusal(file, 'cannot be read', error);
  }
  const blocks = text.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw caFileRefusal(file, 'holds no PEM certificate');
  blocks.forEach((block, index) => {
    try {
      new X509Certificate(block);
    } catch (error) {
      throw caFileRefusal(file, `holds a damaged certificate (the ${ordinal(index + 1)})`, error);
    }
  });
  return blocks;
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** NODE_EXTRA_CA_CERTS, which Node adds only when no list is given, so it is added again to a list given. */
function extraFromEnvironment(env: Environment, reader: CertificateReader | null): string[] {
  if (reader) return reader('extra');
  const file = env['NODE_EXTRA_CA_CERTS'];
  if (!file) return [];
  try {
    return readFileSync(file, 'utf8').match(PEM_BLOCK) ?? [];
  } catch {
    // Node itself warned at start that it could not read this file, and goes on without it: so does core.
    return [];
  }
}

/**
 * The list of trusted CAs for TLS, or null for Node's own (its bundled roots and NODE_EXTRA_CA_CERTS) when
 * nothing is added: giving a list replaces Node's, so a list given starts from it.
 */
export function trustedCertificates(
  choice: { caFile: string | null; systemCertificates: boolean },
  env: Environment,
): string[] | null {
  const system = choice.systemCertificates ? (systemCertificates() ?? []) : [];
  const file = choice.caFile ? readCaFile(choice.caFile) : [];
  if (system.length === 0 && file.length === 0) return null;
  return [...tls.rootCertificates, ...extraFromEnvironment(env, certificateReader()), ...system, ...file];
}
