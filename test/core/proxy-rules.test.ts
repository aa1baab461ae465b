/**
 * The rules a proxy choice is made of (decision 0046): which addresses go around the proxy, what a proxy
 * address and a "no proxy" list may be, and how an address with credentials is shown.
 */
import { describe, expect, it } from 'vitest';
import { bypassesProxy } from '../../src/core/net/bypass';
import { environmentRoute } from '../../src/core/net/proxy-route';
import { networkRefusal } from '../../src/core/net/network-errors';
import { maskedProxyUrl, noProxySchema, proxyUrlSchema } from '../../src/shared/proxy';

const around = (url: string, noProxy: string[] = []) => bypassesProxy(new URL(url), noProxy);

describe('going around the proxy', () => {
  it('always for this computer, which a proxy would carry plain http off (decision 0040)', () => {
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://127.9.8.7/',
      'http://localhost:3000/',
      'https://api.localhost/',
      'http://[::1]:8545/',
    ]) {
      expect(around(url), url).toBe(true);
    }
    expect(around('https://0.0.0.0:443/')).toBe(false);
    expect(around('https://reports.example.com/')).toBe(false);
  });

  it('for the hosts, domains, ports and IPv4 ranges NO_PROXY names, as curl reads them', () => {
    const list = noProxySchema.parse(
      '.corp.example, intranet:8443 10.0.0.0/8,[2001:db8::1], Internal.Example',
    );
    expect(list).toEqual([
      '.corp.example',
      'intranet:8443',
      '10.0.0.0/8',
      '[2001:db8::1]',
      'internal.example',
    ]);
    expect(around('https://reports.corp.example/', list)).toBe(true);
    expect(around('https://corp.example/', list)).toBe(true);
    expect(around('https://notcorp.example/', list)).toBe(false);
    expect(around('https://intranet:8443/', list)).toBe(true);
    expect(around('https://intranet/', list)).toBe(false);
    expect(around('https://10.20.30.40/', list)).toBe(true);
    expect(around('https://11.0.0.1/', list)).toBe(false);
    expect(around('https://[2001:db8::1]/', list)).toBe(true);
    expect(around('https://a.internal.example/', list)).toBe(true);
    expect(around('https://anything.example/', ['*'])).toBe(true);
  });

  it('refuses an entry that is no host, naming it', () => {
    const parsed = noProxySchema.safeParse('example.com, http://bad/');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain('"http://bad/" is not a host');
  });
});

describe('a proxy address', () => {
  it('is http or https to a host with no path; host:port alone means http', () => {
    expect(proxyUrlSchema.parse('proxy.corp:3128')).toBe('http://proxy.corp:3128');
    expect(proxyUrlSchema.parse(' https://u:p%40ss@proxy.corp:8443/ ')).toBe(
      'https://u:p%40ss@proxy.corp:8443',
    );
    for (const [input, message] of [
      ['socks5://proxy:1080', 'not socks5://'],
      ['http://proxy:3128/path', 'no path'],
      ['', 'http://host:port'],
    ] as const) {
      const parsed = proxyUrlSchema.safeParse(input);
      expect(parsed.error?.issues[0]?.message, input).toContain(message);
    }
  });

  it('is shown without its user name and password', () => {
    expect(maskedProxyUrl('http://analyst:s3cret@proxy.corp:3128')).toBe('http://•••@proxy.corp:3128');
    expect(maskedProxyUrl('http://proxy.corp:3128')).toBe('http://proxy.corp:3128');
  });

  it('comes from the environment lower case first, HTTP_PROXY when no HTTPS_PROXY, empty as unset', () => {
    expect(environmentRoute({ https_proxy: 'a:1', HTTPS_PROXY: 'b:2' })).toMatchObject({
      url: 'http://a:1',
      source: 'https_proxy',
    });
    expect(environmentRoute({ HTTPS_PROXY: '', HTTP_PROXY: 'c:3', no_proxy: 'x.example' })).toEqual({
      url: 'http://c:3',
      source: 'HTTP_PROXY',
      noProxy: ['x.example'],
    });
    expect(environmentRoute({}).url).toBeNull();
    expect(() => environmentRoute({ NO_PROXY: 'a b !' })).toThrow(/NO_PROXY holds an entry/);
  });
});

describe('a certificate refused', () => {
  const refusal = (code: string) =>
    networkRefusal(
      new TypeError('fetch failed', { cause: Object.assign(new Error('tls'), { code }) }),
      new URL('https://reports.example.com/'),
      null,
    );

  it('says what to change by why it was refused, and that nothing was sent', () => {
    expect(refusal('SELF_SIGNED_CERT_IN_CHAIN')?.message).toContain(
      'Settings → Network (CA certificates file)',
    );
    expect(refusal('ERR_TLS_CERT_ALTNAME_INVALID')?.message).toContain('is for another name');
    expect(refusal('CERT_HAS_EXPIRED')?.message).toContain("Check this computer's date and time");
    for (const code of ['SELF_SIGNED_CERT_IN_CHAIN', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_HAS_EXPIRED']) {
      expect(refusal(code)).toMatchObject({ code: 'certificate_untrusted', details: { notSent: true } });
      expect(refusal(code)?.message).toContain('nothing was sent');
    }
    // Not the network's own: left to the service client's sentences.
    expect(refusal('ECONNRESET')).toBeNull();
  });
});
