/**
 * The demo's service kept in a folder: its port, its library secret, its store and its chain. The desk keys
 * what it bought by the service's address and checks receipts on the chain, so a demo started again on the
 * same folder must be the same service at the same address on the same chain: then what was bought stays
 * owned, receipts still verify, and the stored library secret still opens dossiers (decision 0041).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { z } from 'zod';
import { startStack, type Stack, type StackOptions } from './stack';

const identitySchema = z.object({
  port: z.number().int().min(1).max(65535),
  librarySecret: z.string().min(16),
  asset: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
});
type DemoIdentity = z.infer<typeof identitySchema>;

export interface DemoStack extends Stack {
  /** What differs from the last run on this folder, as sentences for the person; empty when nothing does. */
  changes: string[];
}

/** Whether nothing listens on this loopback port now. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function setAside(file: string): string {
  const aside = `${file}.unreadable-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, aside);
  return aside;
}

function readIdentity(file: string, changes: string[]): DemoIdentity | null {
  if (!existsSync(file)) return null;
  const parsed = identitySchema.safeParse(
    (() => {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as unknown;
      } catch {
        return null;
      }
    })(),
  );
  if (parsed.success) return parsed.data;
  changes.push(
    `The demo service's identity (${file}) could not be read and was moved to ${setAside(file)}: this run is a new demo service, so purchases made before are listed under the old one's address.`,
  );
  return null;
}

/**
 * Starts the demo's stack on `folder` (created if new, private to the user): the port of the last run when
 * it is free, the same library secret, the service's store, and the chain loaded from its state file.
 */
export async function startDemoStack(
  folder: string,
  options: Pick<StackOptions, 'log' | 'seed' | 'buyerCount'> = {},
): Promise<DemoStack> {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const identityFile = path.join(folder, 'identity.json');
  const statePath = path.join(folder, 'chain-state.json');
  const changes: string[] = [];
  const identity = readIdentity(identityFile, changes);
  const librarySecret = identity?.librarySecret ?? randomBytes(24).toString('base64url');
  const samePort = identity !== null && (await portFree(identity.port));
  const start = () =>
    startStack({
      ...options,
      dataDir: folder,
      port: samePort && identity ? identity.port : 0,
      librarySecret,
      chainState: { statePath, ...(identity ? { asset: getAddress(identity.asset) } : {}) },
    });
  const chainSaved = existsSync(statePath);
  let stack: Stack;
  try {
    stack = await start();
  } catch (error) {
    // A state file anvil cannot parse (cut short by a crash while it was written) must not stop the demo.
    if (!(error instanceof Error && error.message.includes("'--state <PATH>'") && existsSync(statePath)))
      throw error;
    changes.push(
      `The demo chain's saved state could not be loaded and was moved to ${setAside(statePath)}; a new chain was started, so receipts of purchases made before cannot be checked on it.`,
    );
    stack = await start();
  }
  if (identity && !chainSaved) {
    changes.push(
      `The demo chain of the last run was not saved in ${statePath}, so a new one was started: receipts of purchases made before cannot be checked on it.`,
    );
  }
  if (identity && !samePort) {
    changes.push(
      `Port ${identity.port} is in use by another program, so the demo service is at ${stack.baseUrl} this time: purchases made at http://127.0.0.1:${identity.port} are listed under that address. Stop what holds port ${identity.port} and start the demo again to see them as owned.`,
    );
  }
  // The first port is kept even when it was taken this time: the purchases made there are the person's.
  const kept: DemoIdentity = { port: identity?.port ?? stack.port, librarySecret, asset: stack.asset };
  writeFileSync(identityFile, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
  return { ...stack, changes };
}
