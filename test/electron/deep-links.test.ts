/**
 * intel-desk:// links: which ones open a route (the browser's own routes, src/shared/route.ts) and which are
 * refused; then the real electron/main.ts against the stand-in Electron, receiving them on open-url, on a
 * second launch's command line, and before its window exists.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deepLinkIn, deepLinkRoute } from '../../electron/deep-links';
import { routeFromHash, routeHash } from '../../src/shared/route';
import { APP_ORIGIN } from '../../electron/channel';
import { fakeEvent } from './fake-electron';
import { cleanup, launch, launchOpened, makeFolders, type Folders } from './launch';

vi.mock('electron', () => import('./fake-electron'));

const service = encodeURIComponent('https://intel.example/api');
const REPORT_LINK = `intel-desk://report/${service}/rpt_ada_001`;

describe('deepLinkRoute', () => {
  it('opens a report of a service and a handle, as the browser routes them', () => {
    const report = deepLinkRoute(REPORT_LINK);
    expect(report).toEqual({ screen: 'report', id: 'rpt_ada_001', serviceUrl: 'https://intel.example/api' });
    expect(routeHash(report!)).toBe('#/report/rpt_ada_001?service=https%3A%2F%2Fintel.example%2Fapi');
    expect(routeFromHash(routeHash(report!))).toEqual(report);
    const handle = deepLinkRoute('intel-desk://handle/AdaQuispe51');
    expect(handle).toEqual({ screen: 'menu', handle: 'AdaQuispe51' });
    expect(routeHash(handle!)).toBe('#/handle/AdaQuispe51');
    expect(deepLinkRoute('intel-desk://handle/%40ada_q')).toEqual({ screen: 'menu', handle: 'ada_q' });
  });

  it('refuses anything else', () => {
    const refused = [
      'intel-desk://settings',
      'intel-desk://purchases/p1',
      'intel-desk://handle/',
      'intel-desk://handle/ada/extra',
      'intel-desk://handle/ada%20quispe',
      'intel-desk://handle/<script>',
      `intel-desk://handle/${'a'.repeat(65)}`,
      'intel-desk://handle/ada?x=1',
      'intel-desk://handle/ada#top',
      'intel-desk://user:pw@handle/ada',
      'intel-desk://handle:99/ada',
      `intel-desk://report/${encodeURIComponent('javascript:alert(1)')}/rpt_1`,
      `intel-desk://report/${encodeURIComponent('file:///etc/passwd')}/rpt_1`,
      'intel-desk://report/rpt_1',
      `intel-desk://report/${service}/rpt%2F..%2F1`,
      `intel-desk://report/${service}/%E0%A4%A`,
      `https://report/${service}/rpt_1`,
      'app://desk/index.html#/handle/ada',
      'not a url',
      `intel-desk://handle/${'a'.repeat(5000)}`,
    ];
    for (const link of refused) expect(deepLinkRoute(link), link).toBeNull();
  });

  it('finds the link among a launch’s arguments', () => {
    expect(deepLinkIn(['/opt/Intel Desk/intel-desk', '--no-sandbox', REPORT_LINK])).toBe(REPORT_LINK);
    expect(deepLinkIn(['/opt/Intel Desk/intel-desk', '--flag'])).toBeNull();
  });
});

describe('the shell', () => {
  let folders: Folders;
  beforeEach(() => {
    folders = makeFolders();
  });
  afterEach(() => cleanup(folders));
  const mainLog = () => readFileSync(path.join(folders.profile, 'logs', 'main.log'), 'utf8');

  it('registers the scheme when packaged and opens the window at a link that came before it', async () => {
    const electron = await launch(folders, { before: (e) => (e.app.isPackaged = true) });
    expect(electron.app.protocolClients).toEqual(['intel-desk']);
    // macOS hands over the link that launched the app while it starts, before the window exists.
    expect(electron.fake.windows).toHaveLength(0);
    electron.app.emit('open-url', fakeEvent(), 'intel-desk://handle/AdaQuispe51');
    const window = await electron.fake.windowOpened;
    expect(window.loadedUrl).toBe(`${APP_ORIGIN}/index.html?locale=en-US#/handle/AdaQuispe51`);
  });

  it('opens links from open-url and from a second launch’s command line, and refuses others', async () => {
    const { electron, window } = await launchOpened(folders);
    expect(electron.app.protocolClients).toEqual([]);
    window.minimize();
    electron.app.emit('second-instance', fakeEvent(), [
      '/usr/bin/intel-desk',
      'intel-desk://handle/AdaQuispe51',
    ]);
    expect(window.loadedUrl).toBe(`${APP_ORIGIN}/index.html?locale=en-US#/handle/AdaQuispe51`);
    expect(window.calls).toEqual(expect.arrayContaining(['restore', 'show', 'focus']));
    const openUrl = fakeEvent();
    electron.app.emit('open-url', openUrl, REPORT_LINK);
    expect(openUrl.defaultPrevented).toBe(true);
    expect(window.loadedUrl).toBe(
      `${APP_ORIGIN}/index.html?locale=en-US#/report/rpt_ada_001?service=https%3A%2F%2Fintel.example%2Fapi`,
    );
    electron.app.emit('open-url', fakeEvent(), 'intel-desk://settings');
    electron.app.emit('open-url', fakeEvent(), 'intel-desk://x\n2026-01-01T00:00:00.000Z info forged');
    electron.app.emit('second-instance', fakeEvent(), ['/usr/bin/intel-desk', 'intel-desk://handle/a b']);
    expect(window.loadedUrl).toBe(
      `${APP_ORIGIN}/index.html?locale=en-US#/report/rpt_ada_001?service=https%3A%2F%2Fintel.example%2Fapi`,
    );
    expect(mainLog()).toContain(
      'Refused a link that is not an Intel Desk report or handle: "intel-desk://settings"',
    );
    expect(mainLog()).not.toMatch(/^2026-01-01T00:00:00.000Z info forged/m);
    expect(mainLog()).toContain(
      'Refused a link that is not an Intel Desk report or handle: "intel-desk://handle/a b"',
    );
  });
});
