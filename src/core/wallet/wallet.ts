/**
 * The desk's signers: a local keystore (private key sealed at rest; unlocked only in memory) or an external
 * wallet in the renderer, which signs typed data the desk hands it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isAddress, getAddress, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { DeskError } from '../base/errors';
import { writePrivateFile, type SecretVault } from './sealing';
import {
  legacySealedSchema,
  openLegacyWithPassphrase,
  openWithPassphrase,
  scryptSealedSchema,
  sealWithPassphrase,
  weakerThan,
  type KdfCost,
} from './passphrase-seal';
import { requireStrongPassphrase } from './passphrase-strength';
import { decryptKeystoreV3 } from './keystore-v3';
import type { DeskEvents } from '../base/events';
import { keepReplacedKeystore } from '../backup/keystore-backup';

const address = z.string().refine((value) => isAddress(value));
const vaultWrapped = z
  .boolean()
  .describe('The passphrase-sealed key, additionally encrypted by the OS keychain.');

const walletFileSchema = z.discriminatedUnion('version', [
  /** Before scrypt N=2^17 and associated data: migrated on the next unlock. */
  z.object({ version: z.literal(1), address, sealed: legacySealedSchema, vaultWrapped }),
  z.object({ version: z.literal(2), address, sealed: scryptSealedSchema, vaultWrapped }),
]);
type WalletFile = z.infer<typeof walletFileSchema>;

/** Binds the sealed key to the address shown for it: a file whose address was edited no longer opens. */
const associatedData = (owner: string) => Buffer.from(`intel-desk wallet v2 ${getAddress(owner)}`, 'utf8');

function parsePrivateKey(key: string): Hex {
  const trimmed = key.trim();
  const normalized = (trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`) as Hex;
  if (!/^0x[0-9a-fA-F]{64}$/.test(normalized)) {
    throw new DeskError('invalid_private_key', 'A private key is 64 hexadecimal characters.', 'wallet');
  }
  return normalized;
}

export type WalletKind = 'keystore' | 'external';

/**
 * When an unlocked keystore locks by itself: after `idleMs()` without being unlocked or used to sign
 * (decision 0029). Reading the wallet's status is not use: the window asks for it every 30 s.
 */
export interface AutoLockPolicy {
  idleMs(): number;
  now(): number;
}

export interface ImportOptions {
  /** The person chose to replace a wallet of another address; its keystore is kept in backups/. */
  replace?: boolean | undefined;
}

export class DeskWallet {
  private account: PrivateKeyAccount | null = null;
  /** When the unlocked key was last unlocked or signed; a key held for the session only never locks. */
  private lastUsedAt: number | null = null;
  private external: `0x${string}` | null = null;
  /** The key in use was given for this run (the CLI's --key-file), not unsealed from wallet.json. */
  private sessionKey = false;
  /** Imports and unlocks run one at a time, so a migration never races an import over wallet.json. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly vault: SecretVault | undefined,
    private readonly kdfCost: KdfCost = 'default',
    private readonly events: DeskEvents | null = null,
    private readonly autoLock: AutoLockPolicy | null = null,
  ) {}

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private readStored(): WalletFile | null {
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

  /** Seals the key under the passphrase at today's cost and replaces wallet.json atomically. */
  private async store(key: Hex, passphrase: string): Promise<PrivateKeyAccount> {
    const account = privateKeyToAccount(key);
    const wrap = Boolean(this.vault?.isAvailable());
    const record = JSON.stringify({
      version: 2,
      address: account.address,
      sealed: await sealWithPassphrase(
        Buffer.from(key.slice(2), 'hex'),
        passphrase,
        associatedData(account.address),
        this.kdfCost,
      ),
      vaultWrapped: wrap,
    } satisfies WalletFile);
    const content =
      wrap && this.vault ? JSON.stringify({ vault: this.vault.encrypt(record).toString('base64') }) : record;
    // Temp file then rename: a crash midway leaves the previous wallet.json whole.
    writePrivateFile(this.file, content);
    return account;
  }

  /** A keystore is stored (wallet.json), locked or not, whatever signs now. */
  hasKeystore(): boolean {
    return existsSync(this.file);
  }

  /** Payments are signed by the stored keystore (unlocked now or to be unlocked), not a run's key or a wallet. */
  signsWithKeystore(): boolean {
    return this.external === null && !this.sessionKey && this.hasKeystore();
  }

  /**
   * Checks `passphrase` by unsealing wallet.json again, even when the wallet is unlocked (decision 0022):
   * consent to raise a cap or go over one. Changes nothing; a wrong one is `wrong_passphrase`.
   */
  confirmPassphrase(passphrase: string): Promise<void> {
    return this.serial(async () => {
      const stored = this.readStored();
      if (!stored) throw new DeskError('no_wallet', 'No wallet is set up: import a key first.', 'wallet');
      if (stored.version === 1) await openLegacyWithPassphrase(stored.sealed, passphrase);
      else await openWithPassphrase(stored.sealed, passphrase, associatedData(stored.address));
    });
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

  /** The unlocked key, for reading whether there is one; asking does not count as using it. */
  unlockedAccount(): PrivateKeyAccount | null {
    this.lockIfIdle();
    return this.external ? null : this.account;
  }

  /** The unlocked key, to sign with now: the idle time starts again. */
  signingAccount(): PrivateKeyAccount | null {
    const account = this.unlockedAccount();
    if (account && this.lastUsedAt !== null && this.autoLock) this.lastUsedAt = this.autoLock.now();
    return account;
  }

  /** Locks a keystore left unused for the idle time the person set; says whether it did. */
  lockIfIdle(): boolean {
    if (!this.autoLock || !this.account || this.lastUsedAt === null) return false;
    if (this.autoLock.now() - this.lastUsedAt < this.autoLock.idleMs()) return false;
    this.lock();
    return true;
  }

  /**
   * Stores a key, sealed. A wallet already set up for another address is never replaced silently: without
   * `replace` the import is refused (naming both addresses) and wallet.json is left as it was; with it, the
   * old keystore is first copied into backups/ and kept there.
   */
  importPrivateKey(key: string, passphrase: string, options: ImportOptions = {}): Promise<void> {
    return this.serial(async () => {
      const normalized = parsePrivateKey(key);
      await requireStrongPassphrase(passphrase);
      this.guardReplacement(privateKeyToAccount(normalized).address, options);
      this.account = await this.store(normalized, passphrase);
      this.lastUsedAt = this.autoLock?.now() ?? null;
      this.external = null;
      this.sessionKey = false;
      this.events?.changed('wallet.changed');
    });
  }

  /** A key held in memory for this run only (the CLI's --key-file): nothing is written. */
  useKeyForSession(key: string): void {
    this.account = privateKeyToAccount(parsePrivateKey(key));
    this.lastUsedAt = null;
    this.external = null;
    this.sessionKey = true;
    this.events?.changed('wallet.changed');
  }

  async importKeystore(
    json: string,
    keystorePassword: string,
    passphrase: string,
    options: ImportOptions = {},
  ): Promise<void> {
    // Checked first so a weak passphrase is refused before the keystore's own (slow) key derivation.
    await requireStrongPassphrase(passphrase);
    await this.importPrivateKey(await decryptKeystoreV3(json, keystorePassword), passphrase, options);
  }

  /**
   * Refuses to put `incoming` over a stored wallet of another address unless asked to replace it; when asked,
   * keeps the stored keystore among the backups first. The same address again (a new passphrase) replaces
   * nothing. A wallet file that cannot be read counts as a wallet: it may be the only copy of a key.
   */
  private guardReplacement(incoming: `0x${string}`, options: ImportOptions): void {
    if (!existsSync(this.file)) return;
    let current: string;
    try {
      const stored = this.readStored();
      current = stored ? getAddress(stored.address) : 'unknown';
    } catch {
      current = 'an unreadable wallet file';
    }
    if (current === incoming) return;
    if (!options.replace) {
      throw new DeskError(
        'wallet_exists',
        `A wallet is already set up here (${current}); importing ${incoming} would replace it. Nothing was changed. Choose to replace it to go on: the current keystore is then kept in the backups folder.`,
        'wallet',
        { current, incoming },
      );
    }
    keepReplacedKeystore(this.file, path.join(path.dirname(this.file), 'backups'), current);
  }

  unlock(passphrase: string): Promise<void> {
    return this.serial(async () => {
      const stored = this.readStored();
      if (!stored) throw new DeskError('no_wallet', 'No wallet is set up: import a key first.', 'wallet');
      const plain =
        stored.version === 1
          ? await openLegacyWithPassphrase(stored.sealed, passphrase)
          : await openWithPassphrase(stored.sealed, passphrase, associatedData(stored.address));
      const key = `0x${plain.toString('hex')}` as Hex;
      const account = privateKeyToAccount(key);
      // Version 1 files carry no associated data, so their address is checked against the key itself.
      if (account.address !== getAddress(stored.address)) {
        throw new DeskError(
          'wallet_file_altered',
          `The wallet file ${this.file} names ${getAddress(stored.address)}, but its key belongs to ${account.address}; it was altered. Import the key again.`,
          'wallet',
        );
      }
      if (stored.version === 1 || weakerThan(stored.sealed, this.kdfCost)) {
        try {
          await this.store(key, passphrase);
        } catch {
          // The key is right and the old file is still whole (the new one is renamed over it only once
          // written); unlocking goes ahead and the next unlock tries the upgrade again.
        }
      }
      this.account = account;
      this.lastUsedAt = this.autoLock?.now() ?? null;
      this.external = null;
      this.sessionKey = false;
      this.events?.changed('wallet.changed');
    });
  }

  lock(): void {
    this.account = null;
    this.lastUsedAt = null;
    this.sessionKey = false;
    this.events?.changed('wallet.changed');
  }

  /** The connected wallet went away (disconnected here or ended from the wallet): back to the keystore, if any. */
  forgetExternal(): void {
    if (!this.external) return;
    this.external = null;
    this.events?.changed('wallet.changed');
  }

  useExternal(address: string): void {
    if (!isAddress(address))
      throw new DeskError('invalid_address', `${address} is not an address.`, 'wallet');
    this.external = getAddress(address);
    this.account = null;
    this.sessionKey = false;
    this.events?.changed('wallet.changed');
  }
}
