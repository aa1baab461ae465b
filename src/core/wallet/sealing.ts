/**
 * Encryption at rest for secrets that have no passphrase of their own: the OS keychain (SecretVault) or a
 * machine-local key file. The wallet's passphrase sealing is in passphrase-seal.ts.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, renameSync, chmodSync } from 'node:fs';
import { z } from 'zod';

export interface SecretVault {
  isAvailable(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(data: Buffer): string;
}

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

  /** Sealed by the OS keychain, which this process has not (a CLI or MCP run beside the desktop app). */
  needsKeychain(sealedText: string): boolean {
    return (
      z.object({ vault: z.string() }).safeParse(safeParse(sealedText)).success && !this.vault?.isAvailable()
    );
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
