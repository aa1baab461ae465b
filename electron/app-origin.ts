/** The app origin, app://desk: what it serves, and the page never leaving it (navigation, windows, permissions). */
import { app, protocol, session } from 'electron';
import { securityHeaders, withPagePolicy } from '../src/host/csp';
import { readStatic } from '../src/host/static-files';
import { APP_ORIGIN, APP_SCHEME } from './channel';

/**
 * Node's URL (this process) knows nothing of Chromium's scheme registration, so for app:// it reports an
 * opaque origin, "null"; the scheme and host are compared instead.
 */
const appUrl = new URL(APP_ORIGIN);
export function isAppUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return (
      parsed.protocol === appUrl.protocol &&
      parsed.host === appUrl.host &&
      !parsed.username &&
      !parsed.password
    );
  } catch {
    return false;
  }
}

/**
 * app:// serves the built window's files, and only from the renderer folder, with the security headers; the
 * page's own policy (its meta tag) names the same WalletConnect relay as the headers.
 */
export function serveRenderer(rendererDir: string, relayUrl: string): void {
  const headers = securityHeaders(relayUrl);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = isAppUrl(request.url) ? await readStatic(rendererDir, url.pathname) : null;
    if (!file) return new Response('Not found', { status: 404, headers });
    const body = file.type.startsWith('text/html') ? withPagePolicy(file.body, relayUrl) : file.body;
    return new Response(new Uint8Array(body), {
      headers: { ...headers, 'Content-Type': file.type },
    });
  });
}

/** No permission, no device, no navigation away from the app origin, no new windows and no webviews. */
export function lockDown(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.setDevicePermissionHandler(() => false);
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-frame-navigate', (event) => {
      if (!isAppUrl(event.url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}
