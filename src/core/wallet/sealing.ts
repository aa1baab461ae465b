/**
 * Encryption at rest: scrypt + AES-256-GCM under a passphrase, optionally wrapped by the OS keychain
 * (SecretVault), and a machine-local key file for secrets that have no passphrase of their own.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, renameSync, chmodSync } from 'node:fs';
import { z } from 'zod';
import { DeskError } from '../errors';

export interface SecretVault {
  isAvailable(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(data: Buffer): string;
}

const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 128 * 1024 * 1024 } as const;

export const sealedSchema = z.object({
  kdf: z.literal('scrypt'),
  salt: z.string(),
  iv: z.string(),
  tag: z.string(),
  ciphertext: z.string(),
});
export type Sealed = z.infer<typeof sealedSchema>;

function aesSeal(key: Buffer, plain: Buffer, salt: Buffer): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return {
    kdf: 'scrypt',
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ciphertext: ciphertext.toString('base64'),
  };
}

function aesOpen(key: Buffer, sealed: Sealed): Buffer | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]);
  } catch {
    return null;
  }
}

export function sealWithPassphrase(plain: Buffer, passphrase: string): Sealed {
  const salt = randomBytes(16);
  return aesSeal(scryptSync(passphrase.normalize('NFKC'), salt, 32, SCRYPT), plain, salt);
}

export function openWithPassphrase(sealed: Sealed, passphrase: string): Buffer {
  const key = scryptSync(passphrase.normalize('NFKC'), Buffer.from(sealed.salt, 'base64'), 32, SCRYPT);
  const plain = aesOpen(key, sealed);
  if (!plain)
    throw new DeskError('wrong_passphrase', 'That passphrase does not unlock this wallet.', 'wallet');
  return plain;
}

/** Writes a file atomically with owner-only permissions. */
export function writePrivateFile(path: string, content: string | Buffer): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  renameSync(temporary, path);
  chmodSync(path, 0o600);
}

/** Seals small secrets with the OS keychain when there is one, else with a random key kept beside the data. */
export class LocalSealer {
  constructor(
    private readonly keyFile: string,
    private readonly vault: SecretVault | undefined,
  ) {}

  private localKey(): Buffer {
    if (existsSync(this.keyFile)) {
      const key = readFileSync(this.keyFile);
      if (key.length === 32) return key;
    }
    const key = randomBytes(32);
    writePrivateFile(this.keyFile, key);
    return key;
  }

  seal(plain: string): string {
    if (this.vault?.isAvailable())
      return JSON.stringify({ vault: this.vault.encrypt(plain).toString('base64') });
    return JSON.stringify({ local: aesSeal(this.localKey(), Buffer.from(plain, 'utf8'), Buffer.alloc(0)) });
  }

  open(sealedText: string): string | null {
    const parsed = z
      .union([z.object({ vault: z.string() }), z.object({ local: sealedSchema })])
      .safeParse(safeParse(sealedText));
    if (!parsed.success) return null;
    if ('vault' in parsed.data) {
      if (!this.vault?.isAvailable()) return null;
      try {
        return this.vault.decrypt(Buffer.from(parsed.data.vault, 'base64'));
      } catch {
        return null;
      }
    }
    return aesOpen(this.localKey(), parsed.data.local)?.toString('utf8') ?? null;
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
