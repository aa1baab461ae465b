/**
 * The desk's signers: a local keystore (private key sealed at rest; unlocked only in memory) or an external
 * wallet in the renderer, which signs typed data the desk hands it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { isAddress, getAddress, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { DeskError } from '../errors';
import {
  openWithPassphrase,
  sealWithPassphrase,
  sealedSchema,
  writePrivateFile,
  type SecretVault,
} from './sealing';
import { decryptKeystoreV3 } from './keystore-v3';

const walletFileSchema = z.object({
  version: z.literal(1),
  address: z.string().refine((value) => isAddress(value)),
  sealed: sealedSchema,
  /** The passphrase-sealed key, additionally encrypted by the OS keychain. */
  vaultWrapped: z.boolean(),
});

function parsePrivateKey(key: string): Hex {
  const trimmed = key.trim();
  const normalized = (trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`) as Hex;
  if (!/^0x[0-9a-fA-F]{64}$/.test(normalized)) {
    throw new DeskError('invalid_private_key', 'A private key is 64 hexadecimal characters.', 'wallet');
  }
  return normalized;
}

export type WalletKind = 'keystore' | 'external';

export class DeskWallet {
  private account: PrivateKeyAccount | null = null;
  private external: `0x${string}` | null = null;

  constructor(
    private readonly file: string,
    private readonly vault: SecretVault | undefined,
  ) {}

  private readStored(): z.infer<typeof walletFileSchema> | null {
    if (!existsSync(this.file)) return null;
    let text = readFileSync(this.file, 'utf8');
    try {
      const outer = JSON.parse(text) as { vault?: string };
      if (typeof outer.vault === 'string') {
        if (!this.vault?.isAvailable()) {
          throw new DeskError(
            'keychain_unavailable',
            'The wallet is sealed by the OS keychain, which is not available now.',
            'wallet',
          );
        }
        try {
          text = this.vault.decrypt(Buffer.from(outer.vault, 'base64'));
        } catch {
          throw new DeskError(
            'keychain_refused',
            'The OS keychain could not unseal the wallet (was it made by another user or computer?); import the key again.',
            'wallet',
          );
        }
      }
      const parsed = walletFileSchema.safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error('bad shape');
      return parsed.data;
    } catch (error) {
      if (error instanceof DeskError) throw error;
      throw new DeskError(
        'wallet_file_damaged',
        `The wallet file ${this.file} is damaged; import the key again.`,
        'wallet',
      );
    }
  }

  kind(): WalletKind | null {
    if (this.external) return 'external';
    return this.account || existsSync(this.file) ? 'keystore' : null;
  }

  address(): `0x${string}` | null {
    if (this.external) return this.external;
    if (this.account) return this.account.address;
    const stored = this.readStored();
    return stored ? getAddress(stored.address) : null;
  }

  unlockedAccount(): PrivateKeyAccount | null {
    return this.external ? null : this.account;
  }

  importPrivateKey(key: string, passphrase: string): void {
    const normalized = parsePrivateKey(key);
    if (passphrase.length < 4)
      throw new DeskError('weak_passphrase', 'Choose a passphrase of at least 4 characters.', 'wallet');
    const account = privateKeyToAccount(normalized);
    const record = JSON.stringify({
      version: 1,
      address: account.address,
      sealed: sealWithPassphrase(Buffer.from(normalized.slice(2), 'hex'), passphrase),
      vaultWrapped: Boolean(this.vault?.isAvailable()),
    });
    const content = this.vault?.isAvailable()
      ? JSON.stringify({ vault: this.vault.encrypt(record).toString('base64') })
      : record;
    writePrivateFile(this.file, content);
    this.account = account;
    this.external = null;
  }

  /** A key held in memory for this run only (the CLI's --key-file): nothing is written. */
  useKeyForSession(key: string): void {
    this.account = privateKeyToAccount(parsePrivateKey(key));
    this.external = null;
  }

  importKeystore(json: string, keystorePassword: string, passphrase: string): void {
    this.importPrivateKey(decryptKeystoreV3(json, keystorePassword), passphrase);
  }

  unlock(passphrase: string): void {
    const stored = this.readStored();
    if (!stored) throw new DeskError('no_wallet', 'No wallet is set up: import a key first.', 'wallet');
    const key = openWithPassphrase(stored.sealed, passphrase);
    this.account = privateKeyToAccount(`0x${key.toString('hex')}`);
    this.external = null;
  }

  lock(): void {
    this.account = null;
  }

  useExternal(address: string): void {
    if (!isAddress(address))
      throw new DeskError('invalid_address', `${address} is not an address.`, 'wallet');
    this.external = getAddress(address);
    this.account = null;
  }
}
