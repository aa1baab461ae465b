/**
 * Electron mode: the same journey as browser mode in the real Electron window (playwright-core's
 * _electron.launch). The Electron binary cannot be downloaded on machines without internet, so this file
 * skips, saying why, where node_modules/electron has no binary.
 */
import { describe } from 'vitest';
import path from 'node:path';
import { _electron as electron } from 'playwright-core';
import { buildIfStale } from '../scripts/build-if-stale';
import { findElectronBinary } from '../scripts/electron-binary';
import { newUserJourney, type DeskDriver } from './journey';

const root = path.resolve(__dirname, '..');
const binary = findElectronBinary(root);

const electronDriver = (executablePath: string): DeskDriver => ({
  name: 'electron',
  downloads: false,
  async open({ dataDir, serviceUrl, rpcUrl, demoAsset }) {
    await buildIfStale(root, () => undefined);
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

if (!binary.found) {
  console.warn(`Electron e2e skipped: ${binary.reason}. Browser mode covers the same journey.`);
}

describe.skipIf(!binary.found)(
  binary.found ? 'Electron mode, as a new user' : `Electron mode (skipped: ${binary.reason})`,
  () => newUserJourney(() => electronDriver(binary.found ? binary.path : '')),
);
