/**
 * The Shared Report Purchase API's additions on top of the official x402 middleware (the peer's 'extras' form):
 * the 402 challenge copied into the JSON body with the spec's `extensions`, the older payment headers accepted,
 * and the settlement receipt mirrored in `X-Payment-Response`. Installed ahead of `paymentMiddleware`, it changes
 * nothing the middleware decides: it only renames a request header and adds to what the middleware answers.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import type { ChallengeExtensions } from '../../src/shared/wire';
import type { PeerSelection } from './peer-data';

/** The header names the spec accepts a payment in besides x402 v2's PAYMENT-SIGNATURE, in order of preference. */
export const LEGACY_PAYMENT_HEADERS = ['x-402-payment', 'x-payment'] as const;

/** What the peer's pre-payment check leaves in `res.locals` for the extras. */
export interface PeerLocals {
  selection?: PeerSelection;
}

const challengeSchema = z.looseObject({ extensions: z.record(z.string(), z.unknown()).optional() });

function decodeChallenge(header: unknown): z.infer<typeof challengeSchema> | null {
  if (typeof header !== 'string' || header.length === 0) return null;
  try {
    const parsed = challengeSchema.safeParse(JSON.parse(Buffer.from(header, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface ExtrasOptions {
  chainId: number;
  unitPriceUsd: number;
  tokenDecimals: number;
}

/** The spec's additions, as one middleware to place before the official payment middleware. */
export function specExtras(options: ExtrasOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!req.headers['payment-signature']) {
      for (const name of LEGACY_PAYMENT_HEADERS) {
        const value = req.headers[name];
        if (typeof value === 'string' && value.length > 0) {
          req.headers['payment-signature'] = value;
          break;
        }
      }
    }

    const json = res.json.bind(res);
    res.json = (body: unknown): Response => {
      const challenge = res.statusCode === 402 ? decodeChallenge(res.getHeader('PAYMENT-REQUIRED')) : null;
      const selection = (res.locals as PeerLocals).selection;
      if (!challenge || !selection) return json(body);
      const extensions: ChallengeExtensions = {
        chainId: options.chainId,
        tokenDecimals: options.tokenDecimals,
        unitPriceUsd: options.unitPriceUsd,
        reportCount: selection.reports.length,
        select: selection.select,
        resource: req.originalUrl,
      };
      return json({ ...challenge, extensions: { ...challenge.extensions, ...extensions } });
    };

    // Every response's head passes here, including the one the middleware writes after settling.
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
    res.writeHead = ((...args: unknown[]): Response => {
      const receipt = res.getHeader('PAYMENT-RESPONSE');
      if (receipt !== undefined && !res.headersSent) {
        res.setHeader('X-Payment-Response', receipt);
        res.setHeader('Access-Control-Expose-Headers', 'PAYMENT-RESPONSE, X-Payment-Response');
      }
      return writeHead(...args);
    }) as Response['writeHead'];
    next();
  };
}
