/**
 * A hostile Shared Report Purchase API: a rewriting proxy in front of the real reference service. Payments
 * still go to the real service and settle on the real chain; only the JSON that comes back is poisoned with
 * the hostile corpus (display names, avatars, affiliations, handles, model labels, narrative sections,
 * analytics labels, change summaries, error bodies). A loopback canary counts any request something makes
 * for a URL the corpus planted.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HostileString } from './hostile-strings';

export interface HostilePlan {
  corpus: HostileString[];
  huge: string;
  urls: string[];
  /** The handle that will be bought: its shelf name carries a never-closed bidi override. */
  target: string;
  targetDisplayName: string;
  /** Model label of the newest bought report: another never-closed override, before the post count. */
  newestModel: string;
  /** A real handle whose display name is the 1 MB string. */
  hugeNameHandle: string;
  /** A well-formed handle the service does not hold; its menu answer is a hostile error body. */
  errorHandle: string;
}

export interface Listening {
  origin: string;
  close(): Promise<void>;
}

export interface Canary extends Listening {
  hits: string[];
}

type Json = Record<string, unknown>;

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function listen(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers everything with an empty 200 and remembers it: any hit means something fetched a planted URL. */
export async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method ?? '?'} ${req.url ?? ''} from ${req.headers['user-agent'] ?? '?'}`);
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('');
  });
  return { ...(await listen(server)), hits };
}

function pick<T>(list: T[], i: number): T {
  return list[((i % list.length) + list.length) % list.length]!;
}

/** Nested arrays and objects deeper than any sane report: a renderer that recurses must still cope. */
export function deepValue(depth: number): unknown {
  let value: unknown = 'bottom <img src=x onerror=__pwned.push("deep")>';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value, 'x'] : { [`level${i}`]: value };
  return value;
}

export function rewriteShelf(body: Json, plan: HostilePlan): Json {
  const { corpus, urls } = plan;
  const real = (Array.isArray(body['entries']) ? body['entries'] : []).filter(isJson).map((entry, i) => {
    const username = String(entry['username']);
    const displayName =
      username === plan.target
        ? plan.targetDisplayName
        : username === plan.hugeNameHandle
          ? plan.huge
          : pick(corpus, i).text;
    return {
      ...entry,
      displayName,
      avatarUrl: pick(urls, i),
      affiliationLabel: pick(corpus, i + 7).text,
      affiliationBadgeUrl: pick(urls, i + 3),
      bio: pick(corpus, i + 11).text,
    };
  });
  const fake = corpus.map((h, i) => ({
    username: h.text,
    displayName: pick(corpus, i + 1).text,
    avatarUrl: pick(urls, i),
    followers: i * 1000,
    postCount: i,
    reportCount: 1,
    gatheredAt: i % 5 === 0 ? pick(corpus, i + 2).text : new Date(Date.UTC(2020, 0, 1 + i)).toISOString(),
    affiliationBadgeUrl: pick(urls, i + 1),
    affiliationLabel: pick(corpus, i + 3).text,
    [h.text]: h.text,
  }));
  const errorEntry = {
    username: plan.errorHandle,
    displayName: 'Answers with a hostile error',
    avatarUrl: pick(urls, 0),
    reportCount: 1,
    gatheredAt: '2019-01-01T00:00:00.000Z',
  };
  return { ...body, entries: [...real, ...fake, errorEntry], note: pick(corpus, 0).text };
}

export function rewriteMenu(body: Json, plan: HostilePlan): Json {
  const reports = (Array.isArray(body['reports']) ? body['reports'] : []).filter(isJson);
  return {
    ...body,
    reports: reports.map((report, i) => ({
      ...report,
      model: pick(plan.corpus, i * 5).text,
      summary: pick(plan.corpus, i * 5 + 1).text,
    })),
    note: plan.corpus[0]?.text,
  };
}

function rewriteReport(report: Json, index: number, plan: HostilePlan): Json {
  const { corpus } = plan;
  const newest = index === 0;
  const narrative = isJson(report['narrative']) ? report['narrative'] : {};
  const sections: [string, unknown][] = Object.entries(narrative).map(([key, value], i) => [
    key,
    `${String(value)}\n\n${pick(corpus, index + i).text}`,
  ]);
  // Every corpus string becomes a section heading and a section body; fromEntries keeps "__proto__" as data.
  corpus.forEach((h, i) => sections.push([h.text, `${h.text}\n\n- ${pick(corpus, i + 1).text}`]));
  if (newest) sections.push(['hugeSection', plan.huge]);
  sections.push(['__proto__', { polluted: pick(corpus, index).text }]);

  const analytics = isJson(report['analytics']) ? report['analytics'] : {};
  const labelled = corpus.map((h, i): [string, number] => [h.text, (i % 7) + 1]);
  if (newest) labelled.push([plan.huge, 9]);
  const hostileAnalytics: [string, unknown][] = [
    ...Object.entries(analytics),
    ['topicShare', corpus.slice(0, 12).map((h, i) => ({ label: h.text, value: (i + 1) / 20 }))],
    ['hostileLabels', Object.fromEntries(labelled)],
    ['rankedLabels', corpus.map((h, i) => ({ name: h.text, score: i }))],
    [pick(corpus, index).text, { note: pick(corpus, index + 1).text, [pick(corpus, 2).text]: 'x' }],
    ['duplicatePoints', [1, 1, 2, 2].map((day, i) => ({ day, posts: i }))],
  ];

  const changeSummary = {
    headline: newest ? plan.huge : pick(corpus, index + 3).text,
    newTopics: corpus.slice(0, 20).map((h) => h.text),
    droppedTopics: corpus.slice(20).map((h) => h.text),
    [pick(corpus, index + 4).text]: pick(corpus, index + 5).text,
    details: corpus.map((h) => ({ [h.id]: h.text })),
    deep: deepValue(newest ? 3000 : 200),
  };

  return {
    ...report,
    model: newest ? plan.newestModel : pick(corpus, index + 9).text,
    narrative: Object.fromEntries(sections),
    analytics: Object.fromEntries(hostileAnalytics),
    changeSummary: report['changeSummary'] === null ? null : changeSummary,
    synthesisSettings: { ...(isJson(report['synthesisSettings']) ? report['synthesisSettings'] : {}), x: 1 },
    html: pick(corpus, index).text,
  };
}

export function rewritePaid(body: Json, plan: HostilePlan): Json {
  const reports = (Array.isArray(body['reports']) ? body['reports'] : []).filter(isJson);
  // The username stays: an answer for another handle is refused and stored nowhere (what arrives must be
  // what was bought), so a hostile username would only test that refusal, not the rendering of the reports.
  return { ...body, reports: reports.map((report, i) => rewriteReport(report, i, plan)) };
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function rewrite(url: URL, status: number, text: string, plan: HostilePlan): string {
  if (status !== 200) return text;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (!isJson(body)) return text;
  if (url.pathname === '/api/intel/list') return JSON.stringify(rewriteShelf(body, plan));
  if (url.pathname !== '/api/intel/reports') return text;
  return JSON.stringify(url.searchParams.has('select') ? rewritePaid(body, plan) : rewriteMenu(body, plan));
}

async function proxy(req: IncomingMessage, res: ServerResponse, upstream: string, plan: HostilePlan) {
  const url = new URL(req.url ?? '/', upstream);
  if (url.pathname === '/api/intel/reports' && url.searchParams.get('username') === plan.errorHandle) {
    const [a, b] = [pick(plan.corpus, 0).text, pick(plan.corpus, 7).text];
    res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: a, message: b }));
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers.set(name, value);
  }
  const body =
    req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(await readBody(req));
  const answer = await fetch(url, { method: req.method ?? 'GET', headers, body, redirect: 'manual' });
  const text = rewrite(url, answer.status, await answer.text(), plan);
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
  });
  out['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(answer.status, out).end(text);
}

export async function startHostileService(upstream: string, plan: HostilePlan): Promise<Listening> {
  const server = createServer((req, res) => {
    proxy(req, res, upstream, plan).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: 'proxy_failed', message: String(error) }));
    });
  });
  return listen(server);
}
