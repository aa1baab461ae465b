/** The shell's WalletConnect relay variable: WalletConnect's relay by default, a loopback ws:// one for tests. */
import { describe, expect, it } from 'vitest';
import { readShellEnv } from '../../electron/env';

describe('INTEL_DESK_WALLETCONNECT_RELAY_URL in the Electron shell', () => {
  it('defaults to WalletConnect’s relay and takes a loopback relay as its origin', () => {
    expect(readShellEnv({}).walletConnectRelayUrl).toBe('wss://relay.walletconnect.org');
    expect(
      readShellEnv({ INTEL_DESK_WALLETCONNECT_RELAY_URL: 'ws://127.0.0.1:4444/' }).walletConnectRelayUrl,
    ).toBe('ws://127.0.0.1:4444');
  });

  it('refuses an unencrypted relay off this machine, naming the variable', () => {
    expect(() => readShellEnv({ INTEL_DESK_WALLETCONNECT_RELAY_URL: 'ws://relay.example.org' })).toThrow(
      /^INTEL_DESK_WALLETCONNECT_RELAY_URL: A WalletConnect relay URL is wss:/,
    );
  });
});
