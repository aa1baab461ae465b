/**
 * Turns a 402 challenge into a quote, or refuses it. Every field the payment will be built from is checked
 * against what the user chose and what Intel Desk allows (payment safety rules 1, 2 and 4, docs/ARCHITECTURE.md); a refused
 * challenge never reaches a signer.
 */
import { getAddress, isAddress } from 'viem';
import type { PaymentChallenge, PaymentRequirement } from '../../shared/wire';
import type { QuoteFact } from '../../shared/rpc';
import { DeskError, refused } from '../base/errors';
import { plural } from '../../shared/words';
import { findAllowed, type AllowedAsset } from './allowlist';
import { MAX_LIMIT_UNITS, TOKEN_DECIMALS, formatUnitsUsd, usdNumberToUnits } from '../../shared/money';

export const MAX_VALIDITY_SECONDS = 300;
/** No single purchase in this app may exceed a million USDC, whatever the service says. */
const MAX_AMOUNT = MAX_LIMIT_UNITS;

export interface Quote {
  network: `eip155:${number}`;
  chainId: number;
  asset: `0x${string}`;
  payTo: `0x${string}`;
  amount: bigint;
  /** The price of one report, in token base units. */
  unitPrice: bigint;
  reportCount: number;
  validitySeconds: number;
  domain: { name: string; version: string };
  allowed: AllowedAsset;
  requirement: PaymentRequirement;
  /** Which of the challenge's payment options this is (0-based), and how many it offered. */
  option: { index: number; count: number };
  /** Facts the service stated in its challenge, and facts the desk derived from its own selection and rules. */
  facts: { stated: QuoteFact[]; derived: QuoteFact[] };
  /** The challenge the price came from, kept for the purchase's receipt. */
  challenge: PaymentChallenge;
  resource: string;
}

export interface QuoteExpectations {
  demo: boolean;
  /** The local demo token, the only asset allowed on the demo chain (see allowlist.ts). */
  demoAsset?: string | null | undefined;
  /** The paid route's path and query as the desk requested it. */
  resourcePath: string;
  /** How many reports the user's selection means, from the free menu (all, dates) or the ids asked. */
  expectedReportCount: number | null;
  /** Where that count comes from, in words, for the refusal ("the menu lists 3 in this date range"). */
  expectedCountSource?: string;
}

const isWholeNumber = (value: number) => Number.isSafeInteger(value) && value >= 0;

function parseResource(value: string): URL | null {
  try {
    return new URL(value, 'http://resource.invalid');
  } catch {
    return null;
  }
}

function sameResource(announced: string, requested: string): boolean {
  const a = parseResource(announced);
  const b = parseResource(requested);
  // A resource that is not even a URL (a hostile "http://[") is not the one requested.
  if (!a || !b) return false;
  if (a.pathname !== b.pathname) return false;
  const sorted = (url: URL) =>
    [...url.searchParams.entries()]
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join('&');
  return sorted(a) === sorted(b);
}

/** What the challenge as a whole says about the request, checked once whichever option is paid. */
interface RequestFacts {
  reportCount: number;
  /** The unit price the challenge stated, in token base units. */
  unitPrice: bigint | null;
  stated: QuoteFact[];
  derived: QuoteFact[];
}

function requestFacts(challenge: PaymentChallenge, expect: QuoteExpectations): RequestFacts {
  const ext = challenge.extensions ?? {};
  const stated: QuoteFact[] = [];
  const derived: QuoteFact[] = [];
  let reportCount: number;
  if (ext.reportCount !== undefined) {
    if (!isWholeNumber(ext.reportCount) || ext.reportCount === 0) {
      throw refused(
        'invalid_report_count',
        `The challenge's report count ${ext.reportCount} is not a positive whole number.`,
      );
    }
    if (expect.expectedReportCount !== null && ext.reportCount !== expect.expectedReportCount) {
      throw refused(
        'report_count_mismatch',
        `The service would charge for ${plural(ext.reportCount, 'report')}, but ${expect.expectedCountSource ?? `your selection is ${expect.expectedReportCount}`}.`,
      );
    }
    stated.push('reportCount');
    reportCount = ext.reportCount;
  } else {
    if (expect.expectedReportCount === null || expect.expectedReportCount <= 0) {
      throw refused(
        'report_count_unknown',
        'The service does not say how many reports it would charge for, and Intel Desk could not count them from the menu. Nothing was signed.',
      );
    }
    derived.push('reportCount');
    reportCount = expect.expectedReportCount;
  }
  let unitPrice: bigint | null = null;
  if (ext.unitPriceUsd !== undefined) {
    if (!Number.isFinite(ext.unitPriceUsd) || ext.unitPriceUsd <= 0) {
      throw refused(
        'invalid_unit_price',
        `The challenge's unit price ${ext.unitPriceUsd} USD is not a valid price.`,
      );
    }
    // The spec states the unit price as a JSON number of USD: its decimal form is read, never scaled as a float.
    const units = usdNumberToUnits(ext.unitPriceUsd);
    if (units === null) {
      throw refused(
        'invalid_unit_price',
        `The unit price ${ext.unitPriceUsd} USD is finer than a USDC base unit.`,
      );
    }
    if (units > MAX_AMOUNT) {
      throw refused(
        'invalid_unit_price',
        `The challenge's unit price ${ext.unitPriceUsd} USD is not a valid price.`,
      );
    }
    unitPrice = units;
    stated.push('unitPrice');
  } else derived.push('unitPrice');
  if (ext.tokenDecimals !== undefined) {
    if (ext.tokenDecimals !== TOKEN_DECIMALS) {
      throw refused(
        'decimals_mismatch',
        `The challenge says the token has ${ext.tokenDecimals} decimals; USDC has 6.`,
      );
    }
    stated.push('tokenDecimals');
  } else derived.push('tokenDecimals');
  const requested = parseResource(expect.resourcePath);
  if (ext.select !== undefined) {
    if (requested?.searchParams.get('select') !== ext.select) {
      throw refused(
        'resource_mismatch',
        `The challenge is for select=${ext.select}, not the selection you made.`,
      );
    }
    stated.push('select');
  } else derived.push('select');
  if (ext.resource !== undefined) {
    if (!sameResource(ext.resource, expect.resourcePath)) {
      throw refused('resource_mismatch', 'The challenge is for a different request than the one you made.');
    }
    stated.push('resource');
  } else {
    // x402 v2 names the resource as a full URL; one with a query names the request itself and must be this one
    // (one without is a route-level description an operator may set, which says nothing about the request).
    const url = challenge.resource?.url;
    const announced = url === undefined ? null : parseResource(url);
    if (
      url !== undefined &&
      (!announced || (announced.search !== '' && !sameResource(url, expect.resourcePath)))
    ) {
      throw refused('resource_mismatch', 'The challenge is for a different request than the one you made.');
    }
    derived.push('resource');
  }
  if (ext.chainId !== undefined) stated.push('chainId');
  else derived.push('chainId');
  return { reportCount, unitPrice, stated, derived };
}

/** One payment option checked against the rules; throws the reason it cannot be paid. */
function quoteFromOption(
  challenge: PaymentChallenge,
  requirement: PaymentRequirement,
  option: Quote['option'],
  facts: RequestFacts,
  expect: QuoteExpectations,
): Quote {
  if (requirement.protocol !== undefined && requirement.protocol !== 'x402') {
    throw refused(
      'challenge_protocol',
      `The service asked for protocol "${requirement.protocol}", not x402.`,
    );
  }
  if (requirement.version !== undefined && requirement.version !== 2) {
    throw refused(
      'challenge_version',
      `The payment option is version ${requirement.version}; Intel Desk pays version 2 only.`,
    );
  }
  if (requirement.scheme !== undefined && requirement.scheme !== 'exact') {
    throw refused(
      'challenge_scheme',
      `The service asked for the "${requirement.scheme}" scheme; Intel Desk pays "exact" only.`,
    );
  }
  const allowed = findAllowed(requirement.network, requirement.asset, expect);
  if (allowed === 'network') {
    throw refused(
      'network_not_allowed',
      `The service asked for payment on ${requirement.network}, which Intel Desk does not pay on${expect.demo ? '' : ' (the local demo chain is allowed only in demo mode)'}.`,
    );
  }
  if (allowed === 'asset') {
    throw refused(
      'asset_not_allowed',
      `The service asked for payment in ${requirement.asset}, which is not USDC on ${requirement.network}${expect.demo && !expect.demoAsset ? ' (demo mode pays only the demo token, and was not told its address: set INTEL_DESK_DEMO_ASSET)' : ''}.`,
    );
  }
  const statedChainId = challenge.extensions?.chainId;
  if (statedChainId !== undefined && statedChainId !== allowed.chainId) {
    throw refused(
      'chain_mismatch',
      `The challenge names chain ${statedChainId} but network ${requirement.network}.`,
    );
  }
  if (!isAddress(requirement.payTo, { strict: false }) || /^0x0{40}$/i.test(requirement.payTo)) {
    throw refused('invalid_pay_to', 'The challenge names no valid payee address.');
  }
  if (!/^\d{1,30}$/.test(requirement.amount)) {
    throw refused(
      'invalid_amount',
      `The challenge amount "${requirement.amount.slice(0, 40)}" is not a whole number of base units.`,
    );
  }
  const amount = BigInt(requirement.amount);
  if (amount === 0n) throw refused('invalid_amount', 'The challenge asks for an amount of zero.');
  if (amount > MAX_AMOUNT)
    throw refused(
      'amount_too_large',
      `The challenge asks for ${requirement.amount} base units, beyond any sane price.`,
    );
  const count = BigInt(facts.reportCount);
  let unitPrice: bigint;
  if (facts.unitPrice !== null) {
    if (amount !== facts.unitPrice * count) {
      throw refused(
        'amount_mismatch',
        `The service asks for ${requirement.amount} base units, but ${plural(facts.reportCount, 'report')} at ${formatUnitsUsd(facts.unitPrice)} make ${facts.unitPrice * count}.`,
      );
    }
    unitPrice = facts.unitPrice;
  } else {
    // No unit price stated: the price of one report is the amount shared over the count the desk expects, and
    // a remainder means the service is not charging that many reports at one price.
    if (amount % count !== 0n) {
      throw refused(
        'amount_mismatch',
        `The service asks for ${requirement.amount} base units, which is not a whole number of base units for each of the ${plural(facts.reportCount, 'report')} chosen.`,
      );
    }
    unitPrice = amount / count;
  }
  const timeout = requirement.maxTimeoutSeconds ?? MAX_VALIDITY_SECONDS;
  if (!Number.isFinite(timeout) || timeout < 10) {
    throw refused(
      'invalid_timeout',
      `The challenge allows ${timeout} s to pay, too little to sign and send.`,
    );
  }
  const extraName = requirement.extra?.name;
  const extraVersion = requirement.extra?.version;
  if ((extraName ?? allowed.domainName) !== allowed.domainName) {
    throw refused('token_domain_mismatch', `The challenge names token "${extraName}", not ${allowed.label}.`);
  }
  if ((extraVersion ?? allowed.domainVersion) !== allowed.domainVersion) {
    throw refused(
      'token_domain_mismatch',
      `The challenge names token version "${extraVersion}", not ${allowed.domainVersion}.`,
    );
  }
  return {
    network: allowed.network,
    chainId: allowed.chainId,
    asset: getAddress(requirement.asset),
    payTo: getAddress(requirement.payTo),
    amount,
    unitPrice,
    reportCount: facts.reportCount,
    validitySeconds: Math.min(MAX_VALIDITY_SECONDS, Math.floor(timeout)),
    domain: { name: allowed.domainName, version: allowed.domainVersion },
    allowed,
    requirement,
    option,
    facts: { stated: facts.stated, derived: facts.derived },
    challenge,
    resource: expect.resourcePath,
  };
}

/**
 * The quote for the first of the challenge's payment options that the payment rules allow (x402 lets a service
 * offer several; the spec's clients used only the first). Refuses, naming every option's reason, when none can
 * be paid.
 */
export function quoteFromChallenge(challenge: PaymentChallenge, expect: QuoteExpectations): Quote {
  if (challenge.x402Version !== 2) {
    throw refused(
      'challenge_version',
      `The service asked for x402 version ${challenge.x402Version}; Intel Desk pays version 2 only.`,
    );
  }
  const count = challenge.accepts.length;
  if (count === 0)
    throw refused('challenge_no_options', 'The service asked for payment but offered no way to pay.');
  const facts = requestFacts(challenge, expect);
  const reasons: DeskError[] = [];
  for (const [index, requirement] of challenge.accepts.entries()) {
    try {
      return quoteFromOption(challenge, requirement, { index, count }, facts, expect);
    } catch (error) {
      if (!(error instanceof DeskError)) throw error;
      reasons.push(error);
    }
  }
  const [first] = reasons;
  if (!first || reasons.length === 1) throw first ?? new Error('no payment option was judged');
  const each = reasons.map((reason, index) => `option ${index + 1}: ${reason.message}`).join(' ');
  throw refused(first.code, `None of the service's ${count} payment options can be paid. ${each}`);
}

/** Compares two quotes on everything that moves money; a difference is shown to the user, never absorbed. */
export function quoteDifference(before: Quote, after: Quote): string | null {
  if (before.network !== after.network)
    return `the network changed from ${before.network} to ${after.network}`;
  if (before.asset !== after.asset) return `the token changed from ${before.asset} to ${after.asset}`;
  if (before.payTo !== after.payTo) return `the payee changed from ${before.payTo} to ${after.payTo}`;
  if (before.reportCount !== after.reportCount)
    return `the report count changed from ${before.reportCount} to ${after.reportCount}`;
  if (before.amount !== after.amount)
    return `the price changed from ${before.amount} to ${after.amount} base units`;
  return null;
}
