/** JSON answers and request bodies for the service's node:http handlers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EncodedBody } from '../store/handles';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendRawJson(res, status, JSON.stringify(body), headers);
}

export function sendRawJson(
  res: ServerResponse,
  status: number,
  json: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(json);
}

/** A body encoded ahead of the request (HandleStore's shelf and menus), or 304 when the client holds it. */
export function sendEncoded(req: IncomingMessage, res: ServerResponse, body: EncodedBody): void {
  if (req.headers['if-none-match'] === body.etag) {
    res.writeHead(304, { 'Cache-Control': body.headers['Cache-Control'] ?? 'no-cache', ETag: body.etag });
    res.end();
    return;
  }
  res.writeHead(200, body.headers);
  res.end(body.bytes);
}

export function sendError(res: ServerResponse, error: HttpError): void {
  sendJson(res, error.status, { error: error.error, message: error.message, ...error.extra });
}

export async function readBody(req: IncomingMessage, limitBytes: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > limitBytes)
    throw new HttpError(413, 'body_too_large', `request body is over ${limitBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limitBytes)
      throw new HttpError(413, 'body_too_large', `request body is over ${limitBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
