/**
 * The installers and the update feed, as electron-builder itself resolves electron-builder.yml: its Packager and
 * per-system packagers (targets, architectures, artifact names), the app-update.yml its PublishManager embeds,
 * and latest*.yml from its own update-info writer over stand-in installers. The Electron binary cannot be
 * fetched here, so nothing is packed; what is checked is everything the packing would decide and write about
 * updates, and that electron-updater's own file choice finds the installer each system updates from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Arch, Platform, type PlatformPackager } from 'app-builder-lib';
import { Packager } from 'app-builder-lib/out/packager.js';
import { AppInfo } from 'app-builder-lib/out/appInfo.js';
import { computeArchToTargetNamesMap } from 'app-builder-lib/out/targets/targetFactory.js';
import {
  getAppUpdatePublishConfiguration,
  getPublishConfigs,
} from 'app-builder-lib/out/publish/PublishManager.js';
import {
  createUpdateInfoTasks,
  writeUpdateInfoFiles,
} from 'app-builder-lib/out/publish/updateInfoBuilder.js';
import type { ArtifactCreated } from 'app-builder-lib/out/packagerApi.js';
import { serializeToYaml } from 'builder-util';
import { findFile, parseUpdateInfo, resolveFiles } from 'electron-updater/out/providers/Provider.js';
import { MacUpdater } from 'electron-updater/out/MacUpdater.js';
import type { UpdateInfo } from 'builder-util-runtime';
// @ts-expect-error plain ESM module without types: a release needs nothing compiled
import { checkFeed } from '../../scripts/release-feed.mjs';

const root = path.resolve(__dirname, '../..');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
const feedCheck = checkFeed as (
  dir: string,
  system: string,
  version: string,
) => { problems: string[]; uploads: string[] };

type System = 'mac' | 'win' | 'linux';
const PLATFORMS: Record<System, Platform> = {
  mac: Platform.MAC,
  win: Platform.WINDOWS,
  linux: Platform.LINUX,
};
/** The file each target writes (NSIS writes the setup exe). */
const EXTENSION: Record<string, string> = {
  dmg: 'dmg',
  zip: 'zip',
  nsis: 'exe',
  AppImage: 'AppImage',
  deb: 'deb',
};
/** Where each target's own options live in the configuration. */
const OPTIONS_KEY: Record<string, string> = {
  dmg: 'dmg',
  zip: 'zip',
  nsis: 'nsis',
  AppImage: 'appImage',
  deb: 'deb',
};

let packager: Packager;
const helpers = new Map<System, PlatformPackager<object>>();
let out: string;

beforeAll(async () => {
  packager = new Packager({ projectDir: root, targets: Platform.LINUX.createTarget() });
  await packager.validateConfig();
  // What Packager.build sets before packing; the framework (the Electron binary) is never needed here.
  packager._appInfo = new AppInfo(packager, null);
  // What Packager.doBuild calls for each system it packs (private in the .d.ts).
  const builder = packager as unknown as {
    createHelper(platform: Platform): Promise<PlatformPackager<object>>;
  };
  for (const [system, platform] of Object.entries(PLATFORMS))
    helpers.set(system as System, await builder.createHelper(platform));
  out = mkdtempSync(path.join(tmpdir(), 'desk-installers-'));
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

const helper = (system: System) => helpers.get(system) as PlatformPackager<object>;

/** Architecture → targets, as electron-builder resolves them when no --arch is given. */
function targetsOf(system: System): Record<string, string[]> {
  const map = computeArchToTargetNamesMap(new Map(), helper(system), PLATFORMS[system]);
  return Object.fromEntries([...map].map(([arch, names]) => [Arch[arch], names]));
}

function artifactName(system: System, target: string, arch: Arch): string {
  const options = (packager.config as Record<string, unknown>)[OPTIONS_KEY[target] ?? ''] as
    object | undefined;
  return helper(system).expandArtifactNamePattern(options ?? null, EXTENSION[target] ?? target, arch);
}

/** Stand-in installers for every target of `system`, and the feed electron-builder's writer makes of them. */
async function writeFeed(system: System, dir: string): Promise<string[]> {
  const tasks = [];
  const names: string[] = [];
  for (const [archName, targets] of Object.entries(targetsOf(system))) {
    const arch = Arch[archName as keyof typeof Arch];
    const configs = (await getPublishConfigs(helper(system), null, arch, false)) ?? [];
    for (const target of targets) {
      const name = artifactName(system, target, arch);
      const file = path.join(dir, name);
      writeFileSync(file, `the ${target} installer for ${archName}`);
      names.push(name);
      const event = {
        packager: helper(system),
        file,
        arch,
        target: { name: target, outDir: dir, options: null },
        safeArtifactName: helper(system).computeSafeArtifactName(name, EXTENSION[target] ?? target, arch),
        isWriteUpdateInfo: true,
      } as unknown as ArtifactCreated;
      tasks.push(...(await createUpdateInfoTasks(event, configs)));
    }
  }
  await writeUpdateInfoFiles(tasks, packager);
  return names;
}

type ResolvedFiles = ReturnType<typeof resolveFiles>;
/** A channel file as electron-updater reads it. */
const readFeed = (dir: string, file: string) =>
  parseUpdateInfo(readFileSync(path.join(dir, file), 'utf8'), file, new URL(`https://feed.invalid/${file}`));
/** MacUpdater's choice between Apple silicon and Intel files (protected in the .d.ts). */
const forArch = (
  MacUpdater as unknown as { filterFilesForArch: (files: ResolvedFiles, arm64: boolean) => ResolvedFiles }
).filterFilesForArch;
const urlsOf = (info: UpdateInfo) => info.files.map((file) => file.url);
const files = (info: UpdateInfo) => resolveFiles(info, new URL('https://feed.invalid/'));

describe('the installers electron-builder makes', () => {
  it('are a dmg and a zip per Mac architecture, an NSIS setup for Windows, an AppImage and a deb for Linux', () => {
    expect(targetsOf('mac')).toEqual({ arm64: ['dmg', 'zip'], x64: ['dmg', 'zip'] });
    expect(targetsOf('win')).toEqual({ x64: ['nsis'] });
    expect(targetsOf('linux')).toEqual({ x64: ['AppImage', 'deb'] });
  });

  it('are named by version and architecture, in names GitHub keeps as they are', () => {
    expect(artifactName('mac', 'dmg', Arch.arm64)).toBe(`intel-desk-${version}-arm64.dmg`);
    expect(artifactName('mac', 'zip', Arch.x64)).toBe(`intel-desk-${version}-x64.zip`);
    expect(artifactName('win', 'nsis', Arch.x64)).toBe(`intel-desk-${version}-setup-x64.exe`);
    expect(artifactName('linux', 'AppImage', Arch.x64)).toBe(`intel-desk-${version}-x86_64.AppImage`);
    expect(artifactName('linux', 'deb', Arch.x64)).toBe(`intel-desk-${version}-amd64.deb`);
  });

  it('are the files the README tells a person to download', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const install = readme.slice(
      readme.indexOf('## Install'),
      readme.indexOf('**If the system warns you.**'),
    );
    for (const [system, target, arch] of [
      ['mac', 'dmg', Arch.arm64],
      ['mac', 'dmg', Arch.x64],
      ['win', 'nsis', Arch.x64],
      ['linux', 'deb', Arch.x64],
      ['linux', 'AppImage', Arch.x64],
    ] as const)
      expect(install).toContain(`\`${artifactName(system, target, arch).replace(version, 'X.Y.Z')}\``);
  });

  it('embed an app-update.yml naming the GitHub releases, and on Windows the publisher updates must be signed by', async () => {
    const embedded = async (system: System) =>
      parseUpdateInfo(
        serializeToYaml(
          (await getAppUpdatePublishConfiguration(helper(system), null, Arch.x64, false)) ?? {},
        ),
        'app-update.yml',
        new URL('file:///app-update.yml'),
      ) as unknown;
    const github = {
      provider: 'github',
      owner: 'intel-desk',
      repo: 'intel-desk',
      releaseType: 'draft',
      // The cache folder electron/updater.ts also names for a feed given by INTEL_DESK_UPDATE_URL.
      updaterCacheDirName: 'intel-desk-updater',
    };
    expect(await embedded('mac')).toEqual(github);
    expect(await embedded('linux')).toEqual(github);
    expect(await embedded('win')).toEqual({ ...github, publisherName: ['Intel Desk authors'] });
    expect(readFileSync(path.join(root, 'electron/updater.ts'), 'utf8')).toContain(
      "'updaterCacheDirName: intel-desk-updater'",
    );
  });
});

describe('the update feed electron-builder writes beside them', () => {
  it('lists on macOS a zip per architecture, the file MacUpdater installs from, for Apple silicon and Intel alike', async () => {
    const dir = mkdtempSync(path.join(out, 'mac-'));
    await writeFeed('mac', dir);
    const feed = readFeed(dir, 'latest-mac.yml');
    expect(feed.version).toBe(version);
    expect(urlsOf(feed).sort()).toEqual(
      ['arm64.dmg', 'arm64.zip', 'x64.dmg', 'x64.zip'].map((end) => `intel-desk-${version}-${end}`),
    );
    for (const [arm64, arch] of [
      [true, 'arm64'],
      [false, 'x64'],
    ] as const) {
      const chosen = findFile(forArch(files(feed), arm64), 'zip', ['pkg', 'dmg']);
      expect(chosen?.info.url).toBe(`intel-desk-${version}-${arch}.zip`);
    }
    expect(feedCheck(dir, 'mac', version).problems).toEqual([]);
  });

  it('lists on Windows the setup exe NsisUpdater installs from, in latest.yml', async () => {
    const dir = mkdtempSync(path.join(out, 'win-'));
    await writeFeed('win', dir);
    const feed = readFeed(dir, 'latest.yml');
    expect(findFile(files(feed), 'exe')?.info.url).toBe(`intel-desk-${version}-setup-x64.exe`);
    expect(feedCheck(dir, 'win', version).problems).toEqual([]);
  });

  it('lists on Linux both the AppImage and the deb, each found by its own updater', async () => {
    const dir = mkdtempSync(path.join(out, 'linux-'));
    await writeFeed('linux', dir);
    const feed = readFeed(dir, 'latest-linux.yml');
    expect(findFile(files(feed), 'AppImage', ['rpm', 'deb', 'pacman'])?.info.url).toBe(
      `intel-desk-${version}-x86_64.AppImage`,
    );
    expect(findFile(files(feed), 'deb', ['AppImage', 'rpm', 'pacman'])?.info.url).toBe(
      `intel-desk-${version}-amd64.deb`,
    );
    const { problems, uploads } = feedCheck(dir, 'linux', version);
    expect(problems).toEqual([]);
    expect(uploads.map((file) => path.basename(file))).toEqual([
      `intel-desk-${version}-x86_64.AppImage`,
      `intel-desk-${version}-amd64.deb`,
      'latest-linux.yml',
    ]);
  });
});

describe('scripts/release-feed.mjs', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(root, 'scripts/release-feed.mjs'), ...args], {
      cwd: root,
      encoding: 'utf8',
    });

  it('prints what to upload for a usable feed, and refuses one without its channel file', async () => {
    const dir = mkdtempSync(path.join(out, 'cli-'));
    await writeFeed('win', dir);
    const ok = run(dir, 'win');
    expect(ok.stderr).toBe('');
    expect(
      ok.stdout
        .trim()
        .split('\n')
        .map((line) => path.basename(line)),
    ).toEqual([`intel-desk-${version}-setup-x64.exe`, 'latest.yml']);
    const wrong = run(dir, 'mac');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain(`latest-mac.yml is missing from ${dir}: was this the mac build?`);
    expect(run(dir, 'beos').stderr).toBe('release-feed: say which system: mac, win or linux (not "beos")\n');
  });

  it('refuses a Mac feed without zips, an installer that is not the one listed, and another version', async () => {
    const dir = mkdtempSync(path.join(out, 'bad-mac-'));
    await writeFeed('mac', dir);
    const feed = readFeed(dir, 'latest-mac.yml');
    const dmgOnly = { ...feed, files: feed.files.filter((file) => file.url.endsWith('.dmg')) };
    writeFileSync(path.join(dir, 'latest-mac.yml'), serializeToYaml(dmgOnly));
    writeFileSync(path.join(dir, `intel-desk-${version}-x64.dmg`), 'something else');
    expect(feedCheck(dir, 'mac', '9.9.9').problems).toEqual([
      `latest-mac.yml is for version ${version}, not 9.9.9`,
      `intel-desk-${version}-x64.dmg's sha512 is not the one latest-mac.yml gives`,
      'latest-mac.yml lists no .zip, which the mac updater installs from',
      `intel-desk-${version}-x64.dmg has no zip for its architecture: those Macs could install it, never update it`,
      `intel-desk-${version}-arm64.dmg has no zip for its architecture: those Macs could install it, never update it`,
    ]);
  });
});

describe('.github/workflows/release.yml', () => {
  interface Step {
    name?: string;
    run?: string;
    env?: Record<string, string>;
  }
  interface Job {
    needs?: string;
    steps: Step[];
    strategy?: { 'fail-fast': boolean; matrix: { include: Array<{ system: string }> } };
  }
  // Any YAML: electron-updater's reader of a channel file is js-yaml's load with an error message around it.
  const workflow = parseUpdateInfo(
    readFileSync(path.join(root, '.github/workflows/release.yml'), 'utf8'),
    'release.yml',
    new URL('file:///release.yml'),
  ) as unknown as { jobs: Record<'draft' | 'build' | 'publish', Job> };
  const runs = (job: Job) => job.steps.map((step) => step.run ?? '').join('\n');

  it('builds every system, checks each feed, uploads to a draft and publishes only after all three', () => {
    const { draft, build, publish } = workflow.jobs;
    expect(build.strategy?.matrix.include.map((entry) => entry.system).sort()).toEqual([
      'linux',
      'mac',
      'win',
    ]);
    expect(build.strategy?.['fail-fast']).toBe(true);
    expect([build.needs, publish.needs]).toEqual(['draft', 'build']);
    expect(runs(draft)).toContain('test/electron/installers.test.ts');
    expect(runs(draft)).toContain('gh release create "$TAG" --draft');
    expect(runs(build)).toContain('npx electron-builder --${{ matrix.system }} --publish never');
    expect(runs(build)).toContain('node scripts/release-feed.mjs release ${{ matrix.system }}');
    expect(runs(publish)).toContain('--draft=false');
  });

  it('hands electron-builder the signing and notarization variables it reads, from secrets only', () => {
    const signing = workflow.jobs.build.steps.find((step) => step.name?.startsWith('Signing'));
    for (const [name, value] of Object.entries(signing?.env ?? {}))
      expect(value, name).toBe(`\${{ secrets.${name} }}`);
    for (const variable of [
      'CSC_LINK',
      'CSC_KEY_PASSWORD',
      'APPLE_API_KEY',
      'APPLE_API_KEY_ID',
      'APPLE_API_ISSUER',
      'APPLE_ID',
      'APPLE_APP_SPECIFIC_PASSWORD',
      'APPLE_TEAM_ID',
      'WIN_CSC_LINK',
      'WIN_CSC_KEY_PASSWORD',
    ])
      expect(signing?.run, variable).toMatch(new RegExp(`(put |echo ")${variable}[ =]`));
  });
});
