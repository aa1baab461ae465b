/** app.info: what the desk is and where it stands, for the title bar and the start-up warnings. */
import packageJson from '../../../package.json';
import type { RpcHandlers } from '../../shared/rpc';
import type { IntegrityWatch } from '../db/integrity';
import type { OpenedDb } from '../db/open';
import type { DeskService } from '../desk/service';

export interface AppHandlersDeps {
  readonly integrity: Pick<IntegrityWatch, 'damage'>;
  readonly service: Pick<DeskService, 'connection' | 'serviceUrl'>;
  readonly demo: boolean;
  /** A damaged desk.db replaced at start by a backup (db/open.ts). */
  readonly recovered: OpenedDb['movedAside'];
}

/** The one version number: package.json's, so a release bump cannot leave the About box behind. */
export const APP_VERSION: string = packageJson.version;

export const appHandlers = (ctx: AppHandlersDeps): Pick<RpcHandlers, 'app.info'> => ({
  'app.info': async () => {
    const damage = ctx.integrity.damage();
    // The window asks every few seconds while offline: each ask may probe, and the answer comes as an event.
    if (!ctx.service.connection.online) ctx.service.connection.checkAgain();
    return {
      version: APP_VERSION,
      serviceUrl: ctx.service.serviceUrl(),
      demo: ctx.demo,
      online: ctx.service.connection.online,
      ...(ctx.recovered ? { databaseRecovered: ctx.recovered } : {}),
      ...(damage ? { libraryDamaged: damage } : {}),
    };
  },
});
