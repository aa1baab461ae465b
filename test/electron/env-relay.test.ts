/** The shell's WalletConnect relay variable: WalletConnect's relay always, but a loopback one in tests. */
import { describe, expect, it } from 'vitest';
import { readShellEnv } from '../../electron/env';

describe('INTEL_DESK_WALLETCONNECT_RELAY_URL in the Electron shell', () => {
  it('defaults to WalletConnect’s relay and takes a loopback relay as its origin', () => {
    expect(readShellEnv({}).walletConnectRelayUrl).toBe('wss://relay.walletconnect.org');
    expect(
      readShellEnv({ INTEL_DESK_WALLETCONNECT_RELAY_URL: 'ws://127.0.0.1:4444/' }).walletConnectRelayUrl,
    ).toBe('ws://127.0.0.1:4444');
  });

  it('refuses any relay off this machine, naming the variable', () => {
    for (const relay of ['ws://relay.example.org', 'wss://relay.example.org'])
      expect(() => readShellEnv({ INTEL_DESK_WALLETCONNECT_RELAY_URL: relay })).toThrow(
        /^INTEL_DESK_WALLETCONNECT_RELAY_URL: A WalletConnect relay URL is for tests only: /,
      );
  });
});
