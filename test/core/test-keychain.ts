/** A stand-in for the Electron shell's safeStorage adapter: AES-GCM under a key only this "user" holds. */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretVault } from '../../src/core/wallet/sealing';

export function keychain(key = randomBytes(32), available = true): SecretVault {
  return {
    isAvailable: () => available,
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decrypt(data) {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
