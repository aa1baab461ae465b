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

export const appMethods = {
  'app.info': method<AppInfo>()({
    input: z.object({}),
    reads: ['app'],
    changes: [],
  }),
};
