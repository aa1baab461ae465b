/**
 * Spec 2.2 and 9: unknown fields are kept and ignored, never rejected. Every wire schema parses real bodies
 * (made by the reference service's own code) with extra fields added to every object at every depth, and gives
 * them back unchanged; required fields stay required, so the schemas are not simply "anything goes".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ZodType } from 'zod';
import { openServiceDb, type ServiceDb } from '../../src/service/store/db';
import { DEMO_SEED, seedStore } from '../../src/service/store/seed';
import { HandleStore } from '../../src/service/store/handles';
import { paymentChallenge } from '../../src/service/payment/challenge';
import {
  bundleSchema,
  errorBodySchema,
  insufficientPaymentBodySchema,
  intelReportSnapshotSchema,
  paidSuccessSchema,
  paymentChallengeSchema,
  paymentPayloadSchema,
  reportMenuItemSchema,
  reportMenuSchema,
  settlementResponseSchema,
  shelfEntrySchema,
  shelfListSchema,
} from '../../src/shared/wire';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Adds an unknown scalar, object and array field to every object, recursively. */
function withUnknownFields(value: Json, depth = 0): Json {
  if (Array.isArray(value)) return value.map((item) => withUnknownFields(item, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const out: { [key: string]: Json } = {};
  for (const [key, item] of Object.entries(value)) out[key] = withUnknownFields(item, depth + 1);
  out[`futureScalar${depth}`] = `added at depth ${depth}`;
  out[`futureObject${depth}`] = { nested: { deeper: [1, 'two', null] } };
  out[`futureList${depth}`] = [{ id: 'x' }, 3];
  return out;
}

let dir: string;
let db: ServiceDb;
const samples: { name: string; schema: ZodType; body: Json }[] = [];
const json = (value: unknown): Json => JSON.parse(JSON.stringify(value)) as Json;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'service-wire-'));
  db = openServiceDb(path.join(dir, 'service.db'));
  seedStore(db, { ...DEMO_SEED, handles: 3, minReportsPerHandle: 3, maxReportsPerHandle: 5 });
  const store = new HandleStore(db);
  const shelf = json(JSON.parse(store.shelfJson()));
  const key = (shelf as { entries: { username: string }[] }).entries[0]!.username.toLowerCase();
  const menu = store.menu(key);
  const reports = store.select(key, 'all').map((body) => json(JSON.parse(body)));
  const challenge = paymentChallenge(
    {
      network: 'eip155:31337',
      chainId: 31337,
      asset: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      payTo: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      unitPriceUsd: 0.01,
    },
    'range',
    reports.length,
    `/api/intel/reports?username=${key}&select=range&ids=a`,
    `http://127.0.0.1:1/api/intel/reports?username=${key}&select=range&ids=a`,
  );
  const authorization = {
    from: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    value: '10000',
    validAfter: '0',
    validBefore: '1999999999',
    nonce: `0x${'ab'.repeat(32)}`,
  };
  const payload = { signature: `0x${'11'.repeat(65)}`, authorization };
  samples.push(
    { name: 'shelf list', schema: shelfListSchema, body: shelf },
    { name: 'empty shelf', schema: shelfListSchema, body: { configured: false, entries: [] } },
    { name: 'shelf entry (username only)', schema: shelfEntrySchema, body: { username: 'ada' } },
    {
      name: 'menu',
      schema: reportMenuSchema,
      body: json({ username: key, reportCount: menu.length, reports: menu }),
    },
    {
      name: 'menu item without a date range',
      schema: reportMenuItemSchema,
      body: json({ ...menu[0], dateRange: null }),
    },
    { name: 'IntelReportSnapshot (baseline)', schema: intelReportSnapshotSchema, body: reports.at(-1)! },
    { name: 'IntelReportSnapshot (later)', schema: intelReportSnapshotSchema, body: reports[0]! },
    { name: '402 challenge', schema: paymentChallengeSchema, body: json(challenge) },
    {
      name: 'paid success (agent-paid)',
      schema: paidSuccessSchema,
      body: { username: key, select: 'all', reportCount: reports.length, chargedUsd: 0.03, reports },
    },
    {
      name: 'paid success (library secret, no chargedUsd)',
      schema: paidSuccessSchema,
      body: { username: key, select: 'range', reportCount: 1, reports: [reports[0]!] },
    },
    {
      name: 'error body',
      schema: errorBodySchema,
      body: { error: 'range_requires_from_to_or_ids', message: 'select=range needs from, to or ids' },
    },
    {
      name: 'insufficient_payment body',
      schema: insufficientPaymentBodySchema,
      body: { error: 'insufficient_payment', message: 'below', requiredUsd: 0.02, paidUsd: 0.01 },
    },
    { name: 'bundle', schema: bundleSchema, body: json(store.bundle(key)) },
    {
      name: 'v1 payment payload',
      schema: paymentPayloadSchema,
      body: { x402Version: 1, scheme: 'exact', network: 'base', payload },
    },
    {
      name: 'v2 payment payload',
      schema: paymentPayloadSchema,
      body: json({ x402Version: 2, resource: challenge.resource, accepted: challenge.accepts[0], payload }),
    },
    {
      name: 'settlement response',
      schema: settlementResponseSchema,
      body: {
        success: true,
        transaction: `0x${'cd'.repeat(32)}`,
        network: 'eip155:31337',
        payer: authorization.from,
      },
    },
  );
});

afterAll(() => {
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('wire schemas and unknown fields', () => {
  it('parse every real body unchanged', () => {
    expect(samples.length).toBe(16);
    for (const { name, schema, body } of samples) {
      const parsed = schema.safeParse(body);
      expect(parsed.success, `${name}: ${parsed.error?.message ?? ''}`).toBe(true);
      expect(parsed.data, name).toEqual(body);
    }
  });

  it('keep unknown fields at every depth instead of rejecting or dropping them', () => {
    for (const { name, schema, body } of samples) {
      const extended = withUnknownFields(body);
      const parsed = schema.safeParse(extended);
      expect(parsed.success, `${name}: ${parsed.error?.message ?? ''}`).toBe(true);
      expect(parsed.data, name).toEqual(extended);
    }
  });

  it('still reject bodies missing a required field, so the tolerance is not "anything goes"', () => {
    const without = (name: string, field: string): Json => {
      const sample = samples.find((s) => s.name === name);
      const { [field]: _dropped, ...rest } = sample!.body as { [key: string]: Json };
      return rest;
    };
    const cases: [ZodType, Json][] = [
      [shelfListSchema, without('shelf list', 'entries')],
      [reportMenuSchema, without('menu', 'reports')],
      [reportMenuItemSchema, without('menu item without a date range', 'createdAt')],
      [intelReportSnapshotSchema, without('IntelReportSnapshot (later)', 'id')],
      // A stock x402 v2 challenge has no spec facts, but never lacks its payment options.
      [paymentChallengeSchema, without('402 challenge', 'accepts')],
      [paidSuccessSchema, without('paid success (agent-paid)', 'reports')],
      [errorBodySchema, without('error body', 'error')],
      [insufficientPaymentBodySchema, without('insufficient_payment body', 'requiredUsd')],
      [bundleSchema, without('bundle', 'gatheredAt')],
      [paymentPayloadSchema, without('v2 payment payload', 'payload')],
      [settlementResponseSchema, without('settlement response', 'transaction')],
    ];
    for (const [schema, body] of cases) expect(schema.safeParse(withUnknownFields(body)).success).toBe(false);
  });
});
