/** The OS keychain (Keychain, DPAPI, libsecret/kwallet) as core's SecretVault. */
import { safeStorage } from 'electron';
import type { SecretVault } from '../src/core';

export const safeStorageVault: SecretVault = {
  // On Linux without a keyring, Electron falls back to a hard-coded key; that is not a keychain.
  isAvailable: () =>
    safeStorage.isEncryptionAvailable() &&
    (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text'),
  encrypt: (plain) => safeStorage.encryptString(plain),
  decrypt: (data) => safeStorage.decryptString(data),
};
