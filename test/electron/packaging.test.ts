/**
 * electron-builder.yml as electron-builder itself reads it (its own loader and its JSON schema, which rejects a
 * misspelt option), so a fuse that silently stays at Electron's default cannot pass.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import type { Configuration } from 'app-builder-lib';
import { DebugLogger } from 'builder-util';
import { DEEP_LINK_SCHEME } from '../../electron/channel';

const root = path.resolve(__dirname, '../..');

async function loadConfig(): Promise<Configuration> {
  const config = await getConfig(root, null, null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

describe('electron-builder.yml', () => {
  it('passes electron-builder’s schema', async () => {
    await expect(loadConfig()).resolves.toMatchObject({ appId: 'app.inteldesk.desktop' });
  });

  it('flips the fuses: no run-as-Node, NODE_OPTIONS or --inspect; asar integrity and asar-only on', async () => {
    const config = await loadConfig();
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
    });
    // onlyLoadAppFromAsar would refuse to start an app packaged without an asar archive.
    expect(config.asar).not.toBe(false);
  });

  it('registers the intel-desk:// scheme the shell opens (electron/deep-links.ts)', async () => {
    const config = await loadConfig();
    expect(config.protocols).toEqual([{ name: 'Intel Desk link', schemes: [DEEP_LINK_SCHEME] }]);
  });

  it('gives every package an update feed: the GitHub releases of the repository package.json names', async () => {
    const config = await loadConfig();
    expect(config.publish).toEqual({
      provider: 'github',
      owner: 'intel-desk',
      repo: 'intel-desk',
      releaseType: 'draft',
    });
    const { repository } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      repository: { url: string };
    };
    expect(repository.url).toBe('git+https://github.com/intel-desk/intel-desk.git');
  });

  it('rejects a misspelt fuse, so the check above cannot pass on a name electron-builder ignores', async () => {
    const config = await getConfig(root, null, null);
    const misspelt = { ...config, electronFuses: { runAsnode: false } } as unknown as Configuration;
    await expect(validateConfiguration(misspelt, new DebugLogger(false))).rejects.toThrow(/electronFuses/);
  });
});
