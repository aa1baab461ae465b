/**
 * The demo chain's tools (anvil, solc) are development packages: a packaged Intel Desk and
 * `npm install --omit=dev` leave them out, so a missing one is named with the way to get the demo.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export class DemoPackageMissing extends Error {
  constructor(readonly packageName: string) {
    super(
      `The demo needs ${packageName}, a development package that the packaged app and \`npm install --omit=dev\` leave out. ` +
        'The demo runs from a checkout of intel-desk: `npm install` (which installs the development packages), then `npm start`.',
    );
    this.name = 'DemoPackageMissing';
  }
}

/** Where a demo package's file is, or DemoPackageMissing when the package is not installed. */
export function resolveDemoPackage(packageName: string, file = 'package.json'): string {
  try {
    return require.resolve(`${packageName}/${file}`);
  } catch (error) {
    if (isModuleNotFound(error)) throw new DemoPackageMissing(packageName);
    throw error;
  }
}

/** Loads a demo package (CommonJS), or throws DemoPackageMissing when it is not installed. */
export function loadDemoPackage(packageName: string): unknown {
  resolveDemoPackage(packageName);
  return require(packageName) as unknown;
}

function isModuleNotFound(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'MODULE_NOT_FOUND';
}
