/**
 * intel-desk:// links from other apps: `intel-desk://report/<service URL, percent-encoded>/<report id>` opens
 * that report and `intel-desk://handle/<name>` that handle's menu, as the browser routes #/report/… and
 * #/handle/… do (src/shared/route.ts). Anything else is refused and logged: a link is input from anywhere.
 * They arrive on macOS as `open-url` (possibly before the app is ready), elsewhere on the command line of the
 * first launch or of a second one, which the single-instance lock hands to this process.
 */
import { app } from 'electron';
import { z } from 'zod';
import { handleNameSchema } from '../src/shared/handle-name';
import { httpUrlSchema } from '../src/shared/rpc';
import { routeHash, type Route } from '../src/shared/route';
import { DEEP_LINK_SCHEME } from './channel';
import type { ShellLog } from './logs';

const reportIdSchema = z.string().regex(/^[A-Za-z0-9_.:~-]{1,200}$/);

/** Percent-decoded path segments; a malformed escape fails the parse. */
const segment = z.string().transform((raw, ctx) => {
  try {
    return decodeURIComponent(raw);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'malformed percent-encoding' });
    return z.NEVER;
  }
});

const linkSchema = z
  .string()
  .max(4096)
  .transform((text, ctx) => {
    if (!URL.canParse(text)) {
      ctx.addIssue({ code: 'custom', message: 'not a URL' });
      return z.NEVER;
    }
    const url = new URL(text);
    const { protocol, username, password, port, search, hash, host, pathname } = url;
    return { protocol, username, password, port, search, hash, host, pathname };
  })
  .pipe(
    z.object({
      protocol: z.literal(`${DEEP_LINK_SCHEME}:`),
      username: z.literal(''),
      password: z.literal(''),
      port: z.literal(''),
      search: z.literal(''),
      hash: z.literal(''),
      host: z.enum(['report', 'handle']),
      pathname: z.string(),
    }),
  )
  .transform((url) => ({ kind: url.host, parts: url.pathname.split('/').slice(1) }))
  .pipe(
    z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('report'),
        parts: z.tuple([segment.pipe(httpUrlSchema), segment.pipe(reportIdSchema)]),
      }),
      z.object({ kind: z.literal('handle'), parts: z.tuple([segment.pipe(handleNameSchema)]) }),
    ]),
  );

/** The window route a deep link opens, or null for anything that is not one of the two links. */
export function deepLinkRoute(link: string): Route | null {
  const parsed = linkSchema.safeParse(link);
  if (!parsed.success) return null;
  const { data } = parsed;
  if (data.kind === 'handle') return { screen: 'menu', handle: data.parts[0] };
  const [serviceUrl, id] = data.parts;
  return { screen: 'report', id, serviceUrl };
}

/** The deep link on a command line (Windows and Linux pass it as an argument), if there is one. */
export function deepLinkIn(argv: readonly string[]): string | null {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`)) ?? null;
}

export interface DeepLinks {
  /** Handles a link: opens its route in the window, or logs the refusal. */
  open(link: string): void;
  /**
   * Called once, when the window is about to open: from then on links go to show(); the route of a link that
   * came earlier (the last one) is returned for the window to open with, else ''.
   */
  ready(): string;
}

/**
 * Registers the scheme with the OS (packaged builds only: from a checkout it would send every link to a
 * development Electron) and listens for links; `show(hash)` brings the window to that route.
 */
export function listenForDeepLinks(log: ShellLog, show: (hash: string) => void): DeepLinks {
  let isReady = false;
  let waiting: string | null = null;
  const open = (link: string) => {
    // Quoted: a link from anywhere must not write lines of its own into the log.
    const quoted = JSON.stringify(link.slice(0, 200));
    const route = deepLinkRoute(link);
    if (!route) {
      log.error(`Refused a link that is not an Intel Desk report or handle: ${quoted}`);
      return;
    }
    const hash = routeHash(route);
    log.info(`Opening the link ${quoted} as ${hash}`);
    if (isReady) show(hash);
    else waiting = hash;
  };
  if (app.isPackaged && !app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME))
    log.error(`The system did not let Intel Desk open ${DEEP_LINK_SCHEME}:// links.`);
  app.on('open-url', (event, url) => {
    event.preventDefault();
    open(url);
  });
  // Windows and Linux start the app with the link as an argument.
  const first = deepLinkIn(process.argv.slice(app.isPackaged ? 1 : 2));
  if (first) open(first);
  return {
    open,
    ready: () => {
      isReady = true;
      const hash = waiting ?? '';
      waiting = null;
      return hash;
    },
  };
}
