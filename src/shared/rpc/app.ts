/** The app itself: version, service, demo mode, and what happened to the library file at start. */
import { z } from 'zod';
import { method } from './method';

export interface AppInfo {
  version: string;
  serviceUrl: string;
  demo: boolean;
  online: boolean;
  /**
   * Set when desk.db was damaged or foreign at start: where the old file was moved, and why; `restored` when
   * the newest good backup took its place (which one, when it was taken, how many reports came back).
   */
  databaseRecovered?: {
    path: string;
    reason: string;
    restored?: { file: string; takenAt: string; reports: number };
  };
  /** Set when a read or the background check found the library file damaged while the desk runs. */
  libraryDamaged?: { reason: string; at: string };
}

/**
 * How an MCP client (Claude Desktop, another assistant) starts `intel-desk mcp` on this computer's library:
 * the command and its arguments, and the same as the client's configuration to paste. No secret is in it.
 */
export interface AssistantSetup {
  /** This desk's data folder, absolute: the one the assistant will read. */
  dataDir: string;
  command: string;
  args: string[];
  /** What this run was given besides Settings (the demo's service, chain and token); absent when nothing. */
  env?: Record<string, string>;
  /** `{"mcpServers": {"intel-desk": {"command", "args", "env"}}}` as JSON text, the shape those clients read. */
  config: string;
  /** The command is `intel-desk` as found on the PATH: the person must have put it there. */
  commandOnPath: boolean;
}

export const appMethods = {
  'app.info': method<AppInfo>()({
    input: z.object({}),
    reads: ['app'],
    changes: [],
  }),
  'app.assistantSetup': method<AssistantSetup>()({
    input: z.object({}),
    reads: ['app'],
    changes: [],
  }),
};
