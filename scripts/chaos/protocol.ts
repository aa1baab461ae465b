/** What the chaos driver and a desk worker say to each other over IPC, checked on both sides. */
import { z } from 'zod';
import { selectionSchema } from '../../src/shared/rpc';

export const workerCommandSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('buy'),
    id: z.number(),
    handle: z.string(),
    selection: selectionSchema,
    skewMs: z.number().int(),
    killAt: z.string().nullable(),
  }),
  z.object({ op: z.literal('reconcile'), id: z.number(), skewMs: z.number().int() }),
  z.object({ op: z.literal('useBuyer'), id: z.number(), key: z.string() }),
  z.object({
    op: z.literal('caps'),
    id: z.number(),
    /** Token base units, as the contract carries caps. */
    perPurchaseCapUnits: z.string().regex(/^\d+$/),
    dailyCapUnits: z.string().regex(/^\d+$/),
  }),
  /** `intel-desk team create`, as the team's admin: the schema and the team with its caps. */
  z.object({
    op: z.literal('teamCreate'),
    id: z.number(),
    url: z.string(),
    name: z.string(),
    perPurchaseCapUnits: z.string().regex(/^\d+$/),
    dailyCapUnits: z.string().regex(/^\d+$/),
  }),
  /** Joins the team at a member's URL (password included), as `intel-desk team join` does. */
  z.object({ op: z.literal('teamJoin'), id: z.number(), url: z.string() }),
  /** `intel-desk team sync`: tell the team how purchases ended, publish, free lapsed ones, pull. */
  z.object({ op: z.literal('teamSync'), id: z.number() }),
  z.object({ op: z.literal('close'), id: z.number() }),
]);
export type WorkerCommand = z.infer<typeof workerCommandSchema>;

export const workerReplySchema = z.union([
  z.object({ ready: z.literal(true) }),
  z.object({ id: z.number(), ok: z.literal(true), result: z.unknown() }),
  z.object({ id: z.number(), ok: z.literal(false), code: z.string(), message: z.string() }),
]);
export type WorkerReply = z.infer<typeof workerReplySchema>;
