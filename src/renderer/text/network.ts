/** Settings → Proxy and Certificate authorities (NetworkForm.tsx). */
import { catalogue } from './catalogue';

export const NETWORK_TEXT = {
  proxyTitle: 'Proxy',
  proxyExplain:
    'Connections to the service and the chain RPC go through this proxy (https only, tunnelled). This computer is always reached directly.',
  modeEnvironment: 'From the environment (HTTPS_PROXY, NO_PROXY)',
  modeDirect: 'No proxy',
  modeManual: 'This proxy',
  environmentNone: 'The environment names no proxy: connections go directly.',
  environmentExcept: ', except {hosts}',
  environmentNames: 'The environment names {proxy} ({variable}){exceptions}.',
  proxyAddress: 'Proxy address',
  proxySaved: '{url} (saved; type to replace)',
  proxyPlaceholder: 'http://proxy:3128',
  noProxyFor: 'No proxy for',
  noProxyPlaceholder: '.internal.example, 10.0.0.0/8',
  saveProxy: 'Save proxy',
  saved: 'Saved.',
  certificatesTitle: 'Certificate authorities',
  certificatesExplain:
    "Behind TLS inspection, give your organisation's CA certificate (a PEM file) so https connections are trusted.",
  caFile: 'CA certificates file',
  caFilePlaceholder: '/path/to/corporate-ca.pem',
  useFile: 'Use this file',
  useNoFile: 'Use no file',
  trustSystem: "Trust the system's certificate store",
  noSystemStore:
    "This runtime cannot read the system's store (it needs Node 22.15 or later); use a CA file, or NODE_EXTRA_CA_CERTS for the CLI.",
} as const;

export const networkText = catalogue(NETWORK_TEXT);
