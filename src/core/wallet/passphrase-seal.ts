/**
 * The wallet key at rest: AES-256-GCM under a key derived from the person's passphrase with scrypt, the
 * wallet address bound as associated data so a file whose address was swapped does not open.
 *
 * Why scrypt and not Argon2id: node:crypto ships scrypt, and its async form runs on libuv's thread pool, so
 * deriving never stalls the process that serves the window and needs no native or WebAssembly dependency
 * (a WebAssembly Argon2 would run on the calling thread). N=2^17, r=8, p=1 (128 MiB) is the OWASP Password
 * Storage Cheat Sheet's scrypt setting.
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';
import { DeskError } from '../base/errors';

/**
 * How hard to make a guess. 'fast-insecure-for-tests' exists so test suites that import many wallets stay
 * quick; it is an explicit option of createDeskCore, never read from the environment or a setting.
 */
export type KdfCost = 'default' | 'fast-insecure-for-tests';

const LOG_N: Record<KdfCost, number> = { default: 17, 'fast-insecure-for-tests': 10 };
const R = 8;
const P = 1;
/** What files written before the upgrade used: scrypt N=2^15, no associated data. */
const LEGACY = { n: 1 << 15, r: 8, p: 1 } as const;

const MAX_MEMORY = 1 << 30;
const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);
const powerOfTwo = (n: number) => (n & (n - 1)) === 0;

export const scryptSealedSchema = z
  .object({
    kdf: z.literal('scrypt'),
    // Bounded so a crafted file cannot make unlocking allocate gigabytes.
    n: z
      .number()
      .int()
      .min(1 << 10)
      .max(1 << 20)
      .refine(powerOfTwo, 'n must be a power of two'),
    r: z.number().int().min(1).max(16),
    p: z.number().int().min(1).max(4),
    salt: base64,
    iv: base64,
    tag: base64,
    ciphertext: base64,
  })
  .refine((sealed) => 128 * sealed.n * sealed.r <= MAX_MEMORY, 'scrypt would need more than 1 GiB');
export type ScryptSealed = z.infer<typeof scryptSealedSchema>;

/** The sealed key of a version 1 wallet file: the scrypt cost was implied, not stored. */
export const legacySealedSchema = z.object({
  kdf: z.literal('scrypt'),
  salt: base64,
  iv: base64,
  tag: base64,
  ciphertext: base64,
});
export type LegacySealed = z.infer<typeof legacySealedSchema>;

interface ScryptCost {
  n: number;
  r: number;
  p: number;
}

export function targetCost(cost: KdfCost): ScryptCost {
  return { n: 1 << LOG_N[cost], r: R, p: P };
}

function deriveKey(passphrase: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = {
    N: cost.n,
    r: cost.r,
    p: cost.p,
    // scrypt needs 128·N·r bytes; Node refuses anything over 32 MiB unless told otherwise.
    maxmem: 128 * cost.n * cost.r + 16 * 1024 * 1024,
  };
  return new Promise((resolve, reject) => {
    scrypt(passphrase.normalize('NFKC'), salt, 32, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

function gcmSeal(key: Buffer, plain: Buffer, aad: Buffer) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

function gcmOpen(key: Buffer, sealed: LegacySealed, aad: Buffer | null): Buffer | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]);
  } catch {
    return null;
  }
}

export async function sealWithPassphrase(
  plain: Buffer,
  passphrase: string,
  aad: Buffer,
  cost: KdfCost,
): Promise<ScryptSealed> {
  const salt = randomBytes(16);
  const params = targetCost(cost);
  const key = await deriveKey(passphrase, salt, params);
  const { iv, tag, ciphertext } = gcmSeal(key, plain, aad);
  const sealed: ScryptSealed = {
    kdf: 'scrypt',
    ...params,
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: tag.toString('base64'),
    ciphertext: ciphertext.toString('base64'),
  };
  // Proves the record opens before anyone replaces a working file with it.
  if (!gcmOpen(key, sealed, aad)?.equals(plain))
    throw new DeskError('seal_failed', 'Sealing the wallet key failed; nothing was written.', 'wallet');
  return sealed;
}

const wrongPassphrase = (hint = '') =>
  new DeskError('wrong_passphrase', `That passphrase does not unlock this wallet${hint}.`, 'wallet');

/** Opens a current record; a wrong passphrase and an altered address look the same to AES-GCM. */
export async function openWithPassphrase(sealed: ScryptSealed, passphrase: string, aad: Buffer) {
  const key = await deriveKey(passphrase, Buffer.from(sealed.salt, 'base64'), sealed);
  const plain = gcmOpen(key, sealed, aad);
  if (!plain) throw wrongPassphrase(', or the address in wallet.json was changed since it was sealed');
  return plain;
}

export async function openLegacyWithPassphrase(sealed: LegacySealed, passphrase: string) {
  const key = await deriveKey(passphrase, Buffer.from(sealed.salt, 'base64'), LEGACY);
  const plain = gcmOpen(key, sealed, null);
  if (!plain) throw wrongPassphrase();
  return plain;
}

/** True when a record is cheaper to attack than what the desk writes today. */
export function weakerThan(sealed: ScryptSealed, cost: KdfCost): boolean {
  const target = targetCost(cost);
  return sealed.n * sealed.r * sealed.p < target.n * target.r * target.p;
}
