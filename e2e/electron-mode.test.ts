/**
 * Electron mode: the same journey as browser mode in the real Electron window (playwright-core's
 * _electron.launch), with core in its worker thread and better-sqlite3 built for Electron's ABI, as
 * `npm start` runs it. The Electron binary cannot be downloaded on machines without internet, so this file
 * skips, saying why, where node_modules/electron has no binary; with one (`npx install-electron`), run
 * `npx vitest run e2e/electron-mode.test.ts`.
 */
import { describe } from 'vitest';
import path from 'node:path';
import { _electron as electron } from 'playwright-core';
import { findElectronBinary, findElectronPackage } from '../scripts/electron-binary';
import { prepareElectronSqlite } from '../scripts/native-abi';
import { newUserJourney, type DeskDriver } from './journey';

const root = path.resolve(__dirname, '..');
const binary = findElectronBinary(root);

const electronDriver = (executablePath: string): DeskDriver => ({
  name: 'electron',
  downloads: false,
  async open({ dataDir, serviceUrl, rpcUrl, demoAsset }) {
    const native = await prepareElectronSqlite({
      root,
      electron: findElectronPackage(root)!,
      log: (line) => console.log(line),
    });
    if (!native.ok) throw new Error(`${native.reason}; ${native.retry}`);
    const app = await electron.launch({
      executablePath,
      args: [root],
      env: {
        ...process.env,
        INTEL_DESK_DATA_DIR: dataDir,
        INTEL_DESK_DEMO: '1',
        INTEL_DESK_DEMO_ASSET: demoAsset,
        INTEL_DESK_SERVICE_URL: serviceUrl,
        INTEL_DESK_RPC_URL: rpcUrl,
        INTEL_DESK_NATIVE_BINDING: native.binding,
      },
    });
    const page = await app.firstWindow();
    await page.setViewportSize({ width: 1280, height: 860 });
    return {
      page,
      // RPC travels over IPC here; the page-state checks of the journey still apply.
      rpcBodies: () => null,
      close: () => app.close(),
    };
  },
});

// `npm run test:electron` (for a maintainer with the binary) must not pass by skipping.
if (!binary.found && process.env['INTEL_DESK_REQUIRE_ELECTRON'] === '1') {
  throw new Error(`Electron e2e required but ${binary.reason}; run \`npx install-electron\` first.`);
}
if (!binary.found) {
  console.warn(`Electron e2e skipped: ${binary.reason}. Browser mode covers the same journey.`);
}

describe.skipIf(!binary.found)(
  binary.found ? 'Electron mode, as a new user' : `Electron mode (skipped: ${binary.reason})`,
  () => newUserJourney(() => electronDriver(binary.found ? binary.path : '')),
);
