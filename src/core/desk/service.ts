/** The service this desk buys from: the one named for this run, else the one chosen in Settings. */
import type { SettingsStore } from '../settings/settings';
import type { ServiceClient } from '../client/service-client';
import type { ServiceConnection } from '../client/connection';

export const DEFAULT_SERVICE_URL = 'http://127.0.0.1:8402';

export class DeskService {
  /**
   * The service named for this run (the CLI's --service or INTEL_DESK_SERVICE_URL, npm start's demo or
   * --service). It is never saved: a CLI run on the same data dir must not move the app's service, nor this
   * run decide the next one's. Choosing a service in Settings replaces it.
   */
  private forRun: string | null;
  /** The service now selected and whether it answers. */
  readonly connection: ServiceConnection;

  constructor(
    private readonly settings: SettingsStore,
    forRun: string | undefined,
    connect: (serviceUrl: () => string) => ServiceConnection,
  ) {
    this.forRun = forRun || null;
    this.connection = connect(() => this.serviceUrl());
  }

  serviceUrl(): string {
    return this.forRun ?? (this.settings.get().serviceUrl || DEFAULT_SERVICE_URL);
  }

  /** The URL saved in Settings (the default when none is), whatever this run uses. */
  savedServiceUrl(): string {
    return this.settings.get().serviceUrl || DEFAULT_SERVICE_URL;
  }

  /** The service chosen in Settings: saved, and used from now on in place of this run's. */
  chooseService(serviceUrl: string): void {
    this.forRun = null;
    this.settings.update({ serviceUrl });
  }

  client(): ServiceClient {
    return this.connection.client();
  }
}
