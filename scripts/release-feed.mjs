#!/usr/bin/env node
// `node scripts/release-feed.mjs DIR mac|win|linux`: checks the update feed electron-builder wrote into DIR for
// one system before anything is uploaded, and prints the files to upload, one a line (the feed, each installer
// it lists and their blockmaps). A feed electron-updater cannot use on that system is refused with exit code 2
// and what is wrong: an installed copy would otherwise fail every check until the next release. Run by
// .github/workflows/release.yml after `electron-builder --publish never`; decision 0045.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
// electron-updater's own reader of a channel file: the feed is checked as installed copies will read it.
import { parseUpdateInfo } from 'electron-updater/out/providers/Provider.js';

/** The channel file electron-updater asks for on each system (electron-builder's "latest" channel). */
export const CHANNEL_FILES = { mac: 'latest-mac.yml', win: 'latest.yml', linux: 'latest-linux.yml' };

/**
 * What each system's updater installs from: MacUpdater only from a zip (a dmg alone is "ZIP file not
 * provided"), NsisUpdater from the setup exe, AppImageUpdater and DebUpdater from their own package.
 */
export const INSTALLS_FROM = { mac: ['zip'], win: ['exe'], linux: ['AppImage', 'deb'] };

export class FeedError extends Error {}

const extensionOf = (url) => url.slice(url.lastIndexOf('.') + 1);
const isArm64 = (url) => url.includes('arm64');

function sha512Of(file) {
  return createHash('sha512').update(readFileSync(file)).digest('base64');
}

/**
 * The feed for `system` in `dir`, checked against the installers beside it and the `version` being released.
 * @returns {{ problems: string[], uploads: string[] }} uploads are paths inside dir, the feed last
 */
export function checkFeed(dir, system, version) {
  const channel = CHANNEL_FILES[system];
  if (!channel) throw new FeedError(`say which system: mac, win or linux (not "${system ?? ''}")`);
  const feedFile = path.join(dir, channel);
  if (!existsSync(feedFile))
    return { problems: [`${channel} is missing from ${dir}: was this the ${system} build?`], uploads: [] };
  const problems = [];
  let feed;
  try {
    feed = parseUpdateInfo(readFileSync(feedFile, 'utf8'), channel, pathToFileURL(feedFile));
  } catch (error) {
    return { problems: [`${channel} cannot be read: ${error.message.split('\n')[0]}`], uploads: [] };
  }
  if (feed?.version !== version)
    problems.push(`${channel} is for version ${feed?.version ?? 'none'}, not ${version}`);
  const files = Array.isArray(feed?.files) ? feed.files : [];
  if (files.length === 0) problems.push(`${channel} lists no files`);
  const uploads = [];
  for (const entry of files) {
    const url = typeof entry?.url === 'string' ? entry.url : '';
    // The feed names files beside itself, in names GitHub keeps as they are (no spaces, no folders).
    if (!/^[\w.-]+$/.test(url) || url.startsWith('.')) {
      problems.push(`${channel} lists "${url}", which is not a plain file name beside it`);
      continue;
    }
    const file = path.join(dir, url);
    if (!existsSync(file)) {
      problems.push(`${channel} lists ${url}, which is not in ${dir}`);
      continue;
    }
    if (entry.sha512 !== sha512Of(file)) problems.push(`${url}'s sha512 is not the one ${channel} gives`);
    if (entry.size !== undefined && entry.size !== statSync(file).size)
      problems.push(`${url} is ${statSync(file).size} bytes, ${channel} says ${entry.size}`);
    uploads.push(file);
    if (existsSync(`${file}.blockmap`)) uploads.push(`${file}.blockmap`);
  }
  const urls = files.map((entry) => String(entry?.url ?? ''));
  for (const extension of INSTALLS_FROM[system])
    if (!urls.some((url) => extensionOf(url) === extension))
      problems.push(`${channel} lists no .${extension}, which the ${system} updater installs from`);
  if (system === 'mac')
    for (const dmg of urls.filter((url) => extensionOf(url) === 'dmg'))
      if (!urls.some((url) => extensionOf(url) === 'zip' && isArm64(url) === isArm64(dmg)))
        problems.push(`${dmg} has no zip for its architecture: those Macs could install it, never update it`);
  uploads.push(feedFile);
  return { problems, uploads };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    const [dir, system] = process.argv.slice(2);
    if (!dir) throw new FeedError('usage: node scripts/release-feed.mjs DIR mac|win|linux');
    const { version } = JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8'));
    const { problems, uploads } = checkFeed(path.resolve(dir), system, version);
    if (problems.length > 0)
      throw new FeedError(`the ${system} feed is not usable:\n  ${problems.join('\n  ')}`);
    process.stdout.write(uploads.map((file) => `${path.relative(process.cwd(), file)}\n`).join(''));
  } catch (error) {
    process.stderr.write(`release-feed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof FeedError || error?.code === 'ENOENT' ? 2 : 1;
  }
}
