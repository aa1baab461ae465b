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

  it('takes wss:// anywhere and ws:// on this machine only, reduced to its origin', () => {
    for (const [given, origin] of [
      ['wss://relay.example.org', 'wss://relay.example.org'],
      ['wss://relay.example.org/', 'wss://relay.example.org'],
      ['wss://relay.example.org:8443', 'wss://relay.example.org:8443'],
      ['ws://127.0.0.1:9', 'ws://127.0.0.1:9'],
      ['ws://localhost:9', 'ws://localhost:9'],
      ['ws://[::1]:9', 'ws://[::1]:9'],
    ])
      expect(walletConnectRelayUrlSchema.parse(given), given).toBe(origin);
  });

  it('refuses anything else, naming the rule', () => {
    for (const bad of [
      'ws://relay.example.org',
      'ws://192.168.1.2:9',
      'https://relay.example.org',
      'wss://relay.example.org/path',
      'wss://relay.example.org/?projectId=x',
      'wss://user:pass@relay.example.org',
      'not a url',
    ]) {
      const parsed = walletConnectRelayUrlSchema.safeParse(bad);
      expect(parsed.success, bad).toBe(false);
    }
    const refused = relayUrlFromEnv({ INTEL_DESK_WALLETCONNECT_RELAY_URL: 'ws://relay.example.org' });
    expect(refused).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^INTEL_DESK_WALLETCONNECT_RELAY_URL: A WalletConnect relay URL is wss:/,
      ),
    });
  });
});
