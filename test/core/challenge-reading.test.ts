/**
 * Reading a 402 challenge the way x402 v2 servers send it: in the PAYMENT-REQUIRED header, in the body (the
 * spec), or both; and pricing it when the spec's extension facts are missing, from the desk's own selection.
 */
import { describe, expect, it } from 'vitest';
import { encodePaymentRequiredHeader } from '@x402/core/http';
import { readChallenge } from '../../src/core/client/x402-wire';
import type { RawAnswer } from '../../src/core/client/http';
import { quoteFromChallenge, type QuoteExpectations } from '../../src/core/payments/quote';
import { BASE_SEPOLIA_USDC, BASE_MAINNET_USDC } from '../../src/core/payments/allowlist';
import type { PaymentChallenge, PaymentRequirement } from '../../src/shared/wire';
import { quoteFactsSentence, quoteOptionSentence } from '../../src/shared/quote-facts';
import { authorizationTypes } from '@x402/evm';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '../../src/core/payments/authorization';
import { failure } from './helpers';

const PATH = '/api/intel/reports?username=alice&select=all';
const PAY_TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function option(overrides: Partial<PaymentRequirement> = {}): PaymentRequirement {
  return {
    scheme: 'exact',
    network: BASE_SEPOLIA_USDC.network,
    asset: BASE_SEPOLIA_USDC.asset,
    amount: '30000',
    payTo: PAY_TO,
    maxTimeoutSeconds: 300,
    extra: { name: 'USDC', version: '2' },
    ...overrides,
  };
}

/** What a stock @x402/express server sends: x402 v2 with no spec facts, the resource as the full URL. */
function stock(accepts: PaymentRequirement[] = [option()]): PaymentChallenge {
  return {
    x402Version: 2,
    error: 'Payment required',
    resource: { url: `http://seller.example${PATH}` },
    accepts,
  };
}

const SPEC_FACTS = {
  chainId: 84532,
  tokenDecimals: 6,
  unitPriceUsd: 0.01,
  reportCount: 3,
  select: 'all' as const,
  resource: PATH,
};

function answer(headerChallenge: PaymentChallenge | null, body: string): RawAnswer {
  const headers = new Headers({ 'Content-Type': 'application/json' });
  if (headerChallenge) headers.set('PAYMENT-REQUIRED', encodePaymentRequiredHeader(headerChallenge as never));
  return { status: 402, headers, text: body };
}

const expect3: QuoteExpectations = { demo: false, resourcePath: PATH, expectedReportCount: 3 };

describe('where the challenge is read from', () => {
  it('the PAYMENT-REQUIRED header alone, with an empty {} body (a stock x402 server)', () => {
    expect(readChallenge(answer(stock(), '{}'))).toEqual(stock());
  });

  it('the body alone (the spec), and an empty body with the header', () => {
    const spec = { ...stock(), extensions: SPEC_FACTS };
    expect(readChallenge(answer(null, JSON.stringify(spec)))).toEqual(spec);
    expect(readChallenge(answer(stock(), ''))).toEqual(stock());
  });

  it('both, agreeing: the spec facts of either are kept', () => {
    const read = readChallenge(answer(stock(), JSON.stringify({ ...stock(), extensions: SPEC_FACTS })));
    expect(read.extensions).toEqual(SPEC_FACTS);
    expect(read.accepts).toEqual(stock().accepts);
  });

  it('both, disagreeing on the terms or a fact: refused before signing', async () => {
    const cheaper = { ...stock([option({ payTo: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' })]) };
    const first = await failure(
      Promise.resolve().then(() => readChallenge(answer(stock(), JSON.stringify(cheaper)))),
    );
    expect(first).toMatchObject({ code: 'challenge_disagrees', kind: 'refused' });
    expect(first.message).toMatch(/different payment options.*Nothing was signed/);
    const header = { ...stock(), extensions: { ...SPEC_FACTS, reportCount: 2 } };
    const body = { ...stock(), extensions: SPEC_FACTS };
    const second = await failure(
      Promise.resolve().then(() => readChallenge(answer(header, JSON.stringify(body)))),
    );
    expect(second.message).toMatch(/reportCount 2 in the header, 3 in the body/);
  });

  it('neither, or a header that is not base64 JSON: a clear error, not a crash', async () => {
    const none = await failure(Promise.resolve().then(() => readChallenge(answer(null, '{}'))));
    expect(none).toMatchObject({ code: 'challenge_missing' });
    const broken: RawAnswer = {
      status: 402,
      headers: new Headers({ 'PAYMENT-REQUIRED': '%%%' }),
      text: '{}',
    };
    const malformed = await failure(Promise.resolve().then(() => readChallenge(broken)));
    expect(malformed).toMatchObject({ code: 'service_malformed' });
    expect(malformed.message).toMatch(/PAYMENT-REQUIRED/);
  });
});

describe('pricing a challenge without the spec facts', () => {
  it('derives the count from the selection and the unit price as amount ÷ count, and says which it derived', () => {
    const quote = quoteFromChallenge(stock(), expect3);
    expect(quote).toMatchObject({ reportCount: 3, unitPrice: 10000n, amount: 30000n, chainId: 84532 });
    expect(quote.facts.stated).toEqual([]);
    expect([...quote.facts.derived].sort()).toEqual(
      ['chainId', 'reportCount', 'resource', 'select', 'tokenDecimals', 'unitPrice'].sort(),
    );
    const view = { stated: quote.facts.stated, derived: quote.facts.derived };
    expect(quoteFactsSentence(view)).toBe(
      "The service stated none of the spec's price facts. Intel Desk derived the report count from your selection and the free menu, the unit price as the amount divided by that count and the chain, token decimals, selection and request from the payment option and your request.",
    );
    const spec = quoteFromChallenge({ ...stock(), extensions: SPEC_FACTS }, expect3);
    expect(spec.facts.derived).toEqual([]);
    expect(quoteFactsSentence({ stated: spec.facts.stated, derived: [] })).toBeNull();
  });

  it('refuses an amount that is not a whole number of base units per report', async () => {
    const uneven = stock([option({ amount: '30001' })]);
    const error = await failure(Promise.resolve().then(() => quoteFromChallenge(uneven, expect3)));
    expect(error).toMatchObject({ code: 'amount_mismatch' });
    expect(error.message).toMatch(/not a whole number of base units for each of the 3 report/);
  });

  it('refuses when nothing says how many reports are charged for', async () => {
    const error = await failure(
      Promise.resolve().then(() => quoteFromChallenge(stock(), { ...expect3, expectedReportCount: null })),
    );
    expect(error).toMatchObject({ code: 'report_count_unknown' });
  });

  it('still applies the allowlist, the token domain and the resource check', async () => {
    const wrongToken = stock([option({ asset: '0x0000000000000000000000000000000000000bad' })]);
    expect(
      await failure(Promise.resolve().then(() => quoteFromChallenge(wrongToken, expect3))),
    ).toMatchObject({
      code: 'asset_not_allowed',
    });
    const wrongName = stock([option({ extra: { name: 'USD Coin', version: '2' } })]);
    expect(await failure(Promise.resolve().then(() => quoteFromChallenge(wrongName, expect3)))).toMatchObject(
      {
        code: 'token_domain_mismatch',
      },
    );
    const otherRequest = {
      ...stock(),
      resource: { url: 'http://seller.example/api/intel/reports?username=bob&select=all' },
    };
    expect(
      await failure(Promise.resolve().then(() => quoteFromChallenge(otherRequest, expect3))),
    ).toMatchObject({
      code: 'resource_mismatch',
    });
    // A route-level description without a query says nothing about the request, so it is not held against it.
    const described = { ...stock(), resource: { url: 'https://seller.example/docs/reports' } };
    expect(quoteFromChallenge(described, expect3).reportCount).toBe(3);
  });
});

describe('choosing among payment options', () => {
  it('pays the first option the rules allow and says which', () => {
    const elsewhere = option({ network: 'eip155:1', asset: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' });
    const quote = quoteFromChallenge(stock([elsewhere, option()]), expect3);
    expect(quote.option).toEqual({ index: 1, count: 2 });
    expect(quote.network).toBe(BASE_SEPOLIA_USDC.network);
    expect(
      quoteOptionSentence({ option: { number: 2, of: 2 }, network: quote.network, asset: quote.asset }),
    ).toMatch(/option 2 of 2/);
  });

  it('refuses naming every option when none can be paid', async () => {
    const elsewhere = option({ network: 'eip155:1' });
    const mainnetWrongAsset = option({ network: BASE_MAINNET_USDC.network, asset: BASE_SEPOLIA_USDC.asset });
    const error = await failure(
      Promise.resolve().then(() => quoteFromChallenge(stock([elsewhere, mainnetWrongAsset]), expect3)),
    );
    expect(error.code).toBe('network_not_allowed');
    expect(error.message).toMatch(/None of the service's 2 payment options.*option 1: .*option 2: /);
  });
});

describe('the wire shapes the SDK defines', () => {
  it("core's EIP-712 authorization types are @x402/evm's", () => {
    expect(TRANSFER_WITH_AUTHORIZATION_TYPES.TransferWithAuthorization).toEqual(
      authorizationTypes.TransferWithAuthorization,
    );
  });
});
