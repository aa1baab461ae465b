/**
 * Wire schemas of the Shared Report Purchase API (spec sections 2, 4, 7) and of the x402 payloads.
 * Every object is loose: unknown fields are kept and ignored, never rejected (spec 2.2, 9).
 */
import { z } from 'zod';

const isoString = z.string().min(1);

export const dateRangeSchema = z.looseObject({ from: z.string(), to: z.string() });
export type DateRange = z.infer<typeof dateRangeSchema>;

export const shelfEntrySchema = z.looseObject({
  username: z.string().min(1),
  displayName: z.string().optional(),
  avatarUrl: z.string().optional(),
  followers: z.number().optional(),
  postCount: z.number().optional(),
  reportCount: z.number().optional(),
  gatheredAt: z.string().optional(),
  affiliationBadgeUrl: z.string().nullable().optional(),
  affiliationLabel: z.string().nullable().optional(),
});
export type ShelfEntry = z.infer<typeof shelfEntrySchema>;

export const shelfListSchema = z.looseObject({
  configured: z.boolean(),
  entries: z.array(shelfEntrySchema),
});
export type ShelfList = z.infer<typeof shelfListSchema>;

/** The list's envelope alone: clients check entries one by one, so one bad row never hides the shelf. */
export const shelfEnvelopeSchema = z.looseObject({ configured: z.boolean(), entries: z.array(z.unknown()) });

/**
 * A shelf entry as far as it can be trusted: optional fields of the wrong type are dropped (a null display
 * name, followers as "12k"); an entry without a valid username is no entry (null).
 */
export function repairShelfEntry(raw: unknown): ShelfEntry | null {
  const direct = shelfEntrySchema.safeParse(raw);
  if (direct.success) return direct.data;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const repaired: Record<string, unknown> = { ...raw };
  for (const [key, field] of Object.entries(shelfEntrySchema.shape)) {
    if (key in repaired && !field.safeParse(repaired[key]).success) delete repaired[key];
  }
  const second = shelfEntrySchema.safeParse(repaired);
  return second.success ? second.data : null;
}

export const reportMenuItemSchema = z.looseObject({
  id: z.string().min(1),
  createdAt: isoString,
  model: z.string(),
  postCount: z.number(),
  dateRange: dateRangeSchema.nullable(),
});
export type ReportMenuItem = z.infer<typeof reportMenuItemSchema>;

export const reportMenuSchema = z.looseObject({
  username: z.string().min(1),
  reportCount: z.number().int().nonnegative(),
  reports: z.array(reportMenuItemSchema),
});
export type ReportMenu = z.infer<typeof reportMenuSchema>;

export const snapshotMetaSchema = z.looseObject({
  postCount: z.number().optional(),
  dateRange: dateRangeSchema.nullable().optional(),
  postIdsAnalyzed: z.array(z.string()).optional(),
  includedReportIds: z.array(z.string()).optional(),
});

export const intelReportSnapshotSchema = z.looseObject({
  id: z.string().min(1),
  createdAt: isoString,
  model: z.string(),
  synthesisSettings: z.record(z.string(), z.unknown()),
  meta: snapshotMetaSchema,
  analytics: z.record(z.string(), z.unknown()),
  narrative: z.record(z.string(), z.unknown()),
  changeSummary: z.unknown().nullable(),
  previousReportId: z.string().nullable().optional(),
});
export type IntelReportSnapshot = z.infer<typeof intelReportSnapshotSchema>;

export const reportSelectSchema = z.enum(['all', 'range']);
export type ReportSelect = z.infer<typeof reportSelectSchema>;

/** Standard x402 fields are optional here: the spec's own challenge (2.4) carries protocol/version instead. */
export const paymentRequirementSchema = z.looseObject({
  protocol: z.string().optional(),
  version: z.number().optional(),
  scheme: z.string().optional(),
  network: z.string(),
  asset: z.string(),
  amount: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.number().optional(),
  extra: z.looseObject({ name: z.string().optional(), version: z.string().optional() }).optional(),
});
export type PaymentRequirement = z.infer<typeof paymentRequirementSchema>;

/**
 * The spec's own challenge facts (2.4). Each is optional: a server built with the official x402 packages sends
 * none of them, and its `extensions` may hold x402 protocol extensions (objects keyed by name) instead. What is
 * absent the desk derives from its own selection against the free menu (payments/quote.ts).
 */
export const challengeExtensionsSchema = z.looseObject({
  chainId: z.number().optional(),
  tokenDecimals: z.number().optional(),
  unitPriceUsd: z.number().optional(),
  reportCount: z.number().optional(),
  select: reportSelectSchema.optional(),
  resource: z.string().optional(),
});
export type ChallengeExtensions = z.infer<typeof challengeExtensionsSchema>;

export const paymentChallengeSchema = z.looseObject({
  x402Version: z.number(),
  error: z.string().optional(),
  accepts: z.array(paymentRequirementSchema),
  extensions: challengeExtensionsSchema.optional(),
  resource: z.looseObject({ url: z.string() }).optional(),
});
export type PaymentChallenge = z.infer<typeof paymentChallengeSchema>;

export const paidSuccessSchema = z.looseObject({
  username: z.string(),
  select: reportSelectSchema,
  reportCount: z.number().int().nonnegative(),
  chargedUsd: z.number().optional(),
  reports: z.array(intelReportSnapshotSchema),
});
export type PaidSuccess = z.infer<typeof paidSuccessSchema>;

/** Error values of spec section 7 plus the reference service's own documented additions. */
export const ERROR = {
  rangeRequiresFromToOrIds: 'range_requires_from_to_or_ids',
  paymentRequired: 'Payment required',
  insufficientPayment: 'insufficient_payment',
  noMatchingReports: 'no_matching_reports',
  paymentAlreadyUsed: 'payment_already_used',
} as const;

export const errorBodySchema = z.looseObject({ error: z.string(), message: z.string().optional() });

export const insufficientPaymentBodySchema = z.looseObject({
  error: z.literal(ERROR.insufficientPayment),
  requiredUsd: z.number(),
  paidUsd: z.number(),
});

export const bundleSchema = z.looseObject({
  v: z.literal(1),
  username: z.string().min(1),
  profile: z.record(z.string(), z.unknown()).nullable(),
  posts: z.array(z.record(z.string(), z.unknown())),
  edges: z.array(z.record(z.string(), z.unknown())),
  reportHistory: z.array(intelReportSnapshotSchema),
  gatheredAt: isoString,
});
export type Bundle = z.infer<typeof bundleSchema>;

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);

export const eip3009AuthorizationSchema = z.looseObject({
  from: hex,
  to: hex,
  value: z.string().regex(/^\d+$/),
  validAfter: z.string().regex(/^\d+$/),
  validBefore: z.string().regex(/^\d+$/),
  nonce: hex,
});
export type Eip3009Authorization = z.infer<typeof eip3009AuthorizationSchema>;

export const exactEvmPayloadSchema = z.looseObject({
  signature: hex,
  authorization: eip3009AuthorizationSchema,
});

/** v1: `{x402Version: 1, scheme, network: "base", payload}`. */
export const paymentPayloadV1Schema = z.looseObject({
  x402Version: z.literal(1),
  scheme: z.string(),
  network: z.string(),
  payload: exactEvmPayloadSchema,
});

/** v2: `{x402Version: 2, resource, accepted, payload}`. */
export const paymentPayloadV2Schema = z.looseObject({
  x402Version: z.literal(2),
  resource: z.unknown().optional(),
  accepted: paymentRequirementSchema,
  payload: exactEvmPayloadSchema,
});

export const paymentPayloadSchema = z.union([paymentPayloadV1Schema, paymentPayloadV2Schema]);
export type PaymentPayload = z.infer<typeof paymentPayloadSchema>;

export const settlementResponseSchema = z.looseObject({
  success: z.boolean(),
  transaction: z.string(),
  network: z.string(),
  payer: z.string().optional(),
  errorReason: z.string().optional(),
  errorMessage: z.string().optional(),
});
export type SettlementResponse = z.infer<typeof settlementResponseSchema>;

/**
 * A transaction hash as evidence is kept: 0x and 64 hex digits, else null. What a service names as its
 * settlement is shown in receipts and explorer links, so nothing else it sends there is kept.
 */
export function transactionHash(value: unknown): `0x${string}` | null {
  return typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value) ? (value as `0x${string}`) : null;
}
