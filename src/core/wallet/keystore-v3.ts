/**
 * Reads a standard Ethereum JSON keystore (v3: scrypt or pbkdf2, aes-128-ctr, keccak-256 MAC). Derivation is
 * asynchronous: geth's default scrypt (N=2^18) takes about a second and must not freeze the window meanwhile.
 */
import { createDecipheriv, pbkdf2, scrypt } from 'node:crypto';
import { promisify } from 'node:util';
import { keccak256, toHex, type Hex } from 'viem';
import { z } from 'zod';
import { DeskError } from '../base/errors';

const hexString = z.string().regex(/^(0x)?[0-9a-fA-F]+$/);

const v3Schema = z.object({
  version: z.literal(3),
  crypto: z.object({
    cipher: z.literal('aes-128-ctr'),
    ciphertext: hexString,
    cipherparams: z.object({ iv: hexString }),
    kdf: z.enum(['scrypt', 'pbkdf2']),
    kdfparams: z.looseObject({
      dklen: z.number().int().min(32).max(64),
      salt: hexString,
      n: z
        .number()
        .int()
        .positive()
        .max(1 << 20)
        .optional(),
      r: z.number().int().positive().max(16).optional(),
      p: z.number().int().positive().max(16).optional(),
      c: z.number().int().positive().max(10_000_000).optional(),
      prf: z.literal('hmac-sha256').optional(),
    }),
    mac: hexString,
  }),
});

const bytes = (hex: string) => Buffer.from(hex.replace(/^0x/, ''), 'hex');
const pbkdf2Async = promisify(pbkdf2);
/** geth's "standard" scrypt (N=2^18, r=8) needs 256 MiB; allow up to 1 GiB and refuse beyond that. */
const MAX_SCRYPT_MEMORY = 1024 * 1024 * 1024;

function scryptAsync(password: string, salt: Buffer, length: number, n: number, r: number, p: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password,
      salt,
      length,
      { N: n, r, p, maxmem: MAX_SCRYPT_MEMORY + 16 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

export async function decryptKeystoreV3(json: string, password: string): Promise<Hex> {
  let parsed;
  try {
    parsed = v3Schema.safeParse(JSON.parse(json));
  } catch {
    throw new DeskError('invalid_keystore', 'The keystore file is not JSON.', 'wallet');
  }
  if (!parsed.success) {
    throw new DeskError(
      'invalid_keystore',
      'The file is not a version 3 Ethereum keystore (scrypt or pbkdf2, aes-128-ctr).',
      'wallet',
    );
  }
  const { crypto } = parsed.data;
  const params = crypto.kdfparams;
  const salt = bytes(params.salt);
  let derived: Buffer;
  if (crypto.kdf === 'scrypt') {
    const n = params.n ?? 0;
    if (!n || (n & (n - 1)) !== 0)
      throw new DeskError('invalid_keystore', 'The keystore has invalid scrypt parameters.', 'wallet');
    const r = params.r ?? 8;
    if (128 * n * r > MAX_SCRYPT_MEMORY)
      throw new DeskError(
        'invalid_keystore',
        `The keystore's scrypt setting needs ${(128 * n * r) / 2 ** 20} MiB, more than the 1024 MiB Intel Desk allows; export it with a lower cost.`,
        'wallet',
      );
    derived = await scryptAsync(password, salt, params.dklen, n, r, params.p ?? 1);
  } else {
    derived = await pbkdf2Async(password, salt, params.c ?? 262_144, params.dklen, 'sha256');
  }
  const ciphertext = bytes(crypto.ciphertext);
  const mac = keccak256(Buffer.concat([derived.subarray(16, 32), ciphertext]));
  if (mac.slice(2).toLowerCase() !== crypto.mac.replace(/^0x/, '').toLowerCase()) {
    throw new DeskError('wrong_passphrase', 'That password does not open this keystore.', 'wallet');
  }
  const decipher = createDecipheriv('aes-128-ctr', derived.subarray(0, 16), bytes(crypto.cipherparams.iv));
  const key = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  if (key.length !== 32)
    throw new DeskError('invalid_keystore', 'The keystore does not hold a 32-byte private key.', 'wallet');
  return toHex(key);
}
