/** app.info: what the desk is and where it stands, for the title bar and the start-up warnings. */
import packageJson from '../../../package.json';
import type { RpcHandlers } from '../../shared/rpc';
import type { DeskContext } from '../desk/context';

/** The one version number: package.json's, so a release bump cannot leave the About box behind. */
export const APP_VERSION: string = packageJson.version;

export const appHandlers = (ctx: DeskContext): Pick<RpcHandlers, 'app.info'> => ({
  'app.info': async () => {
    const damage = ctx.integrity.damage();
    // The window asks every few seconds while offline: each ask may probe, and the answer comes as an event.
    if (!ctx.connection.online) ctx.connection.checkAgain();
    return {
      version: APP_VERSION,
      serviceUrl: ctx.serviceUrl(),
      demo: ctx.demo,
      online: ctx.connection.online,
      ...(ctx.recovered ? { databaseRecovered: ctx.recovered } : {}),
      ...(damage ? { libraryDamaged: damage } : {}),
    };
  },
});
