import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WALLETCONNECT_RELAY_URL,
  relayUrlFromEnv,
  walletConnectRelayUrlSchema,
} from '../../src/shared/walletconnect-relay';

describe('the WalletConnect relay URL', () => {
  it('is WalletConnect’s own unless the run names another', () => {
    expect(relayUrlFromEnv({})).toEqual({ ok: true, url: DEFAULT_WALLETCONNECT_RELAY_URL });
    expect(relayUrlFromEnv({ INTEL_DESK_WALLETCONNECT_RELAY_URL: '' })).toEqual({
      ok: true,
      url: DEFAULT_WALLETCONNECT_RELAY_URL,
    });
    expect(relayUrlFromEnv({ INTEL_DESK_WALLETCONNECT_RELAY_URL: 'ws://127.0.0.1:7000' })).toEqual({
      ok: true,
      url: 'ws://127.0.0.1:7000',
    });
  });

  it('takes a test relay on this machine only, reduced to its origin', () => {
    for (const [given, origin] of [
      ['wss://127.0.0.1:8443/', 'wss://127.0.0.1:8443'],
      ['ws://127.0.0.1:9', 'ws://127.0.0.1:9'],
      ['ws://localhost:9', 'ws://localhost:9'],
      ['ws://[::1]:9', 'ws://[::1]:9'],
    ])
      expect(walletConnectRelayUrlSchema.parse(given), given).toBe(origin);
  });

  it('refuses any relay off this machine, WalletConnect’s own network being the only one people use', () => {
    for (const bad of [
      'wss://relay.example.org',
      'wss://relay.walletconnect.org',
      'ws://relay.example.org',
      'ws://192.168.1.2:9',
      'https://relay.example.org',
      'wss://127.0.0.1:9/path',
      'wss://127.0.0.1:9/?projectId=x',
      'wss://user:pass@127.0.0.1:9',
      'not a url',
    ]) {
      const parsed = walletConnectRelayUrlSchema.safeParse(bad);
      expect(parsed.success, bad).toBe(false);
    }
    const refused = relayUrlFromEnv({ INTEL_DESK_WALLETCONNECT_RELAY_URL: 'ws://relay.example.org' });
    expect(refused).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^INTEL_DESK_WALLETCONNECT_RELAY_URL: A WalletConnect relay URL is for tests only: /,
      ),
    });
  });
});
