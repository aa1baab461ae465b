/**
 * The page side of the hostile-content test: a trap armed before any script of the app runs, a recorder of
 * everything the browser asks for, and an audit of the DOM for markup that could run or load anything.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { ARTIFACTS } from './browser';

declare global {
  interface Window {
    __pwned: string[];
    __violations: string[];
  }
}

export interface Watch {
  requests: string[];
  dialogs: string[];
  popups: string[];
  pageErrors: string[];
}

/** Every payload of the corpus calls __pwned.push or alert; both land in window.__pwned. */
export async function armTrap(context: BrowserContext): Promise<Watch> {
  await context.addInitScript(() => {
    const hits: string[] = [];
    Object.defineProperty(window, '__pwned', { value: hits, writable: false, configurable: false });
    Object.defineProperty(window, '__violations', { value: [], writable: false, configurable: false });
    for (const name of ['alert', 'confirm', 'prompt'] as const) {
      Object.defineProperty(window, name, {
        value: (message?: unknown) => {
          hits.push(`${name}(${String(message)})`);
          return null;
        },
        writable: false,
        configurable: false,
      });
    }
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__violations.push(
        `${event.effectiveDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber} ${event.sample}`,
      );
    });
  });
  const watch: Watch = { requests: [], dialogs: [], popups: [], pageErrors: [] };
  context.on('request', (request) => watch.requests.push(request.url()));
  context.on('dialog', (dialog) => {
    watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return watch;
}

export function watchPage(page: Page, watch: Watch): void {
  page.on('popup', (opened) => watch.popups.push(opened.url()));
  page.on('pageerror', (error) => watch.pageErrors.push(error.message.slice(0, 300)));
}

/** What fired in the page so far: payload calls and CSP violations (a violation means markup got through). */
export async function trapState(page: Page): Promise<{ pwned: string[]; violations: string[] }> {
  return page.evaluate(() => ({ pwned: [...window.__pwned], violations: [...window.__violations] }));
}

/**
 * Markup in the live DOM that could run or load anything: handler attributes, script-capable or
 * resource-loading elements, dangerous URL schemes, CSS that loads. Avatars may use data:image/ URLs.
 */
export async function auditDom(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const self = location.origin;
    const urlAttributes = ['href', 'src', 'xlink:href', 'action', 'formaction', 'data', 'srcdoc', 'poster'];
    for (const el of document.querySelectorAll('*')) {
      const tag = el.tagName.toLowerCase();
      for (const attr of el.getAttributeNames()) {
        const value = el.getAttribute(attr) ?? '';
        if (attr.startsWith('on')) found.push(`<${tag} ${attr}>`);
        if (attr === 'style' && /url\s*\(|expression|binding|@import/i.test(value))
          found.push(`<${tag} style=${value.slice(0, 80)}>`);
        if (!urlAttributes.includes(attr)) continue;
        const scheme = value.trim().toLowerCase();
        const avatar = tag === 'img' && el.classList.contains('avatar') && scheme.startsWith('data:image/');
        if (
          !avatar &&
          /^(javascript|vbscript|data|file):/.test([...scheme].filter((ch) => ch > ' ').join(''))
        )
          found.push(`<${tag} ${attr}=${value.slice(0, 80)}>`);
        if (/^(https?:)?\/\//.test(scheme) && !scheme.startsWith(self.toLowerCase()))
          found.push(`<${tag} ${attr}=${value.slice(0, 80)}> (remote)`);
      }
      if (['iframe', 'object', 'embed', 'base', 'frame', 'frameset', 'style', 'portal'].includes(tag))
        found.push(`<${tag}>`);
      if (tag === 'form' && el.hasAttribute('action')) found.push('<form action>');
      if (
        tag === 'meta' &&
        el.hasAttribute('http-equiv') &&
        el.getAttribute('http-equiv') !== 'Content-Security-Policy'
      )
        found.push(`<meta http-equiv=${el.getAttribute('http-equiv') ?? ''}>`);
      if (tag === 'script' && !(el as HTMLScriptElement).src.startsWith(`${self}/`))
        found.push('<script inline>');
      if (tag === 'link' && !(el as HTMLLinkElement).href.startsWith(`${self}/`))
        found.push(`<link ${(el as HTMLLinkElement).href.slice(0, 80)}>`);
    }
    return found;
  });
}

/** The viewport only: a report holding a 1 MB section is far taller than any full-page capture allows. */
export async function viewShot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `hostile-${name}.png`) });
}

/**
 * Requests the page made outside its own origin; the rule is strict, with no exception for data: or blob:.
 * The only data: URLs the app renders are avatar images, decoded in place, never a request; blob: URLs are
 * made only by the report exports, which this test does not click.
 */
export function foreignRequests(watch: Watch, origin: string): string[] {
  return watch.requests.filter((url) => !url.startsWith(`${origin}/`)).map((url) => url.slice(0, 200));
}
