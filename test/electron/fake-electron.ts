/**
 * A recording stand-in for the `electron` module, so the real electron/main.ts and preload.ts run under
 * vitest where no Electron binary exists. It implements the slice of the API the shell uses with Electron's
 * documented semantics (before-quit can be prevented, app.exit skips it, BrowserWindow.close emits close
 * then closed) and records every call, so tests assert on what the shell asked Electron to do.
 * Each vi.resetModules() gives a fresh instance: one instance is one launch of the app.
 */
import { EventEmitter } from 'node:events';

export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FakeEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
  url?: string;
}

export function fakeEvent(extra: { url?: string } = {}): FakeEvent {
  return {
    ...extra,
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export interface FakeFrame {
  url: string;
  parent: FakeFrame | null;
}

type Listener = (...args: unknown[]) => void;

type HeadersListener = (
  details: { url: string; responseHeaders?: Record<string, string[]> },
  callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
) => void;

export interface InvokeEvent {
  sender: { id: number };
  senderFrame: FakeFrame | null;
}

export interface MenuItem {
  role?: string;
  label?: string;
  type?: string;
  click?: () => void;
  submenu?: MenuItem[];
}

// Web contents ids are unique across launches, as Electron's are within one process.
let nextContentsId = 1;

function createElectron() {
  class FakeWebContents extends EventEmitter {
    readonly id = nextContentsId++;
    readonly mainFrame: FakeFrame = { url: '', parent: null };
    /** What main sent to this window's page, channel and arguments. */
    readonly sent: unknown[][] = [];
    destroyed = false;
    send(channel: string, ...args: unknown[]): void {
      this.sent.push([channel, ...args]);
    }
    reloads = 0;
    reload(): void {
      this.reloads++;
    }
    /** Words the page's misspelling was replaced with, and words added to the dictionary. */
    readonly replacements: string[] = [];
    replaceMisspelling(word: string): void {
      this.replacements.push(word);
    }
    readonly session = {
      dictionary: [] as string[],
      addWordToSpellCheckerDictionary(word: string): boolean {
        this.dictionary.push(word);
        return true;
      },
    };
    isDestroyed(): boolean {
      return this.destroyed;
    }
    windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
      this.windowOpenHandler = handler;
    }
  }

  const windows: FakeBrowserWindow[] = [];
  const windowOpened = deferred<FakeBrowserWindow>();

  class FakeBrowserWindow extends EventEmitter {
    static getAllWindows(): FakeBrowserWindow[] {
      return windows.filter((w) => !w.destroyed);
    }
    readonly webContents = new FakeWebContents();
    readonly options: Record<string, unknown> & { webPreferences?: Record<string, unknown> };
    bounds: Area;
    loadedUrl: string | null = null;
    visible = false;
    focused = false;
    minimized = false;
    maximized = false;
    destroyed = false;
    readonly calls: string[] = [];

    constructor(options: Record<string, unknown>) {
      super();
      this.options = options;
      const n = (key: string, fallback: number) =>
        typeof options[key] === 'number' ? options[key] : fallback;
      this.bounds = { x: n('x', 0), y: n('y', 0), width: n('width', 800), height: n('height', 600) };
      windows.push(this);
      app.emit('web-contents-created', fakeEvent(), this.webContents);
      windowOpened.resolve(this);
    }
    loadURL(url: string): Promise<void> {
      this.loadedUrl = url;
      this.webContents.mainFrame.url = url;
      return fake.failLoad ? Promise.reject(fake.failLoad) : Promise.resolve();
    }
    show(): void {
      this.calls.push('show');
      this.visible = true;
      this.minimized = false;
    }
    focus(): void {
      this.calls.push('focus');
      this.focused = true;
      app.emit('browser-window-focus', fakeEvent(), this);
    }
    blur(): void {
      this.focused = false;
    }
    isFocused(): boolean {
      return this.focused;
    }
    restore(): void {
      this.calls.push('restore');
      this.minimized = false;
    }
    minimize(): void {
      this.minimized = true;
      this.focused = false;
    }
    isMinimized(): boolean {
      return this.minimized;
    }
    maximize(): void {
      this.maximized = true;
    }
    isMaximized(): boolean {
      return this.maximized;
    }
    getNormalBounds(): Area {
      return { ...this.bounds };
    }
    setBounds(bounds: Area): void {
      this.bounds = { ...bounds };
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    close(): void {
      const event = fakeEvent();
      this.emit('close', event);
      if (event.defaultPrevented) return;
      this.destroyed = true;
      this.emit('closed');
      if (FakeBrowserWindow.getAllWindows().length === 0 && !quitting) app.emit('window-all-closed');
    }
  }

  let quitting = false;
  const exited = deferred<number>();
  const quitted = deferred<void>();

  class FakeApp extends EventEmitter {
    readonly paths: Record<string, string> = {};
    appPath = '/nonexistent-app';
    lockGranted = true;
    /** userData at the moment the single-instance lock was asked for. */
    lockedProfile: string | null = null;
    ready = false;
    aboutPanel: Record<string, unknown> | null = null;
    quitCalls = 0;
    isPackaged = false;
    locale = 'en-US';
    getLocale(): string {
      return this.locale;
    }
    /** Schemes the app asked the OS to send it. */
    readonly protocolClients: string[] = [];
    /** Every count the taskbar / dock badge was set to. */
    readonly badgeCounts: number[] = [];
    setBadgeCount(count: number): boolean {
      this.badgeCounts.push(count);
      return true;
    }
    relaunches = 0;
    relaunch(): void {
      this.relaunches++;
    }
    setAsDefaultProtocolClient(scheme: string): boolean {
      this.protocolClients.push(scheme);
      return true;
    }

    getPath(name: string): string {
      // Electron keeps crash dumps in the profile unless told otherwise.
      if (name === 'crashDumps' && !this.paths[name] && this.paths['userData'])
        return `${this.paths['userData']}/Crashpad`;
      const value = this.paths[name];
      if (!value) throw new Error(`fake electron: no path "${name}" configured`);
      return value;
    }
    setPath(name: string, value: string): void {
      this.paths[name] = value;
    }
    getAppPath(): string {
      return this.appPath;
    }
    isReady(): boolean {
      return this.ready;
    }
    whenReady(): Promise<void> {
      return Promise.resolve().then(() => {
        if (!this.ready) {
          this.ready = true;
          this.emit('ready');
        }
      });
    }
    requestSingleInstanceLock(): boolean {
      this.lockedProfile = this.paths['userData'] ?? null;
      return this.lockGranted;
    }
    setAboutPanelOptions(options: Record<string, unknown>): void {
      this.aboutPanel = options;
    }
    quit(): void {
      this.quitCalls++;
      const event = fakeEvent();
      this.emit('before-quit', event);
      if (event.defaultPrevented) return;
      quitting = true;
      for (const window of FakeBrowserWindow.getAllWindows()) window.close();
      this.emit('will-quit', fakeEvent());
      this.emit('quit');
      quitted.resolve();
    }
    exit(code: number): void {
      for (const window of FakeBrowserWindow.getAllWindows()) {
        window.destroyed = true;
      }
      exited.resolve(code);
    }
  }

  const app = new FakeApp();

  const protocol = {
    privileged: [] as unknown[],
    handlers: new Map<string, (request: Request) => Promise<Response>>(),
    registerSchemesAsPrivileged(schemes: unknown[]): void {
      this.privileged.push(...schemes);
    },
    handle(scheme: string, handler: (request: Request) => Promise<Response>): void {
      this.handlers.set(scheme, handler);
    },
  };

  const session = {
    defaultSession: {
      headersListener: null as HeadersListener | null,
      permissionRequest: null as
        ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null,
      permissionCheck: null as ((contents: unknown, permission: string) => boolean) | null,
      devicePermission: null as ((details: unknown) => boolean) | null,
      webRequest: {
        onHeadersReceived(listener: HeadersListener): void {
          session.defaultSession.headersListener = listener;
        },
      },
      setPermissionRequestHandler(
        handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
      ): void {
        this.permissionRequest = handler;
      },
      setPermissionCheckHandler(handler: (contents: unknown, permission: string) => boolean): void {
        this.permissionCheck = handler;
      },
      setDevicePermissionHandler(handler: (details: unknown) => boolean): void {
        this.devicePermission = handler;
      },
      spellCheckerEnabled: true,
      /** Where dictionaries would be downloaded from; null = Electron's default, Google's CDN. */
      dictionaryDownloadUrl: null as string | null,
      setSpellCheckerEnabled(enabled: boolean): void {
        this.spellCheckerEnabled = enabled;
      },
      setSpellCheckerDictionaryDownloadURL(url: string): void {
        this.dictionaryDownloadUrl = url;
      },
    },
  };

  const ipcMain = {
    handlers: new Map<string, (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>>(),
    handle(channel: string, handler: (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>): void {
      if (this.handlers.has(channel))
        throw new Error(`Attempted to register a second handler for '${channel}'`);
      this.handlers.set(channel, handler);
    },
  };

  const Menu = {
    applicationMenu: null as { template: MenuItem[] } | null,
    /** Context menus main popped up, newest last. */
    popups: [] as MenuItem[][],
    buildFromTemplate(template: MenuItem[]): { template: MenuItem[]; popup(): void } {
      return { template, popup: () => Menu.popups.push(template) };
    },
    setApplicationMenu(menu: { template: MenuItem[] } | null): void {
      this.applicationMenu = menu;
    },
  };

  /** `ready`: whether the app was ready, since before that Linux prints the box to stderr and shows nothing. */
  const errorBoxShown = deferred<{ title: string; content: string; ready: boolean }>();
  const messageBoxShown = deferred<Record<string, unknown>>();

  const dialog = {
    errorBoxes: [] as { title: string; content: string; ready: boolean }[],
    showErrorBox(title: string, content: string): void {
      this.errorBoxes.push({ title, content, ready: app.ready });
      errorBoxShown.resolve({ title, content, ready: app.ready });
    },
    /** Every message box shown, in order; each answers with fake.messageBoxResponse (the first button). */
    messageBoxes: [] as Record<string, unknown>[],
    showMessageBox(...args: unknown[]): Promise<{ response: number }> {
      const options = args[args.length - 1] as Record<string, unknown>;
      this.messageBoxes.push(options);
      messageBoxShown.resolve(options);
      return Promise.resolve({ response: fake.messageBoxResponse });
    },
    /** Every open dialog shown, in order; each answers with fake.openDialogFile (null: cancelled). */
    openDialogs: [] as Record<string, unknown>[],
    showOpenDialog(...args: unknown[]): Promise<{ canceled: boolean; filePaths: string[] }> {
      this.openDialogs.push(args[args.length - 1] as Record<string, unknown>);
      const file = fake.openDialogFile;
      return Promise.resolve(
        file === null ? { canceled: true, filePaths: [] } : { canceled: false, filePaths: [file] },
      );
    },
  };

  const pathOpened = deferred<string>();

  const shell = {
    openPath(target: string): Promise<string> {
      pathOpened.resolve(target);
      return Promise.resolve('');
    },
    openExternal(url: string): Promise<void> {
      return Promise.reject(new Error(`fake electron: the shell never opens ${url}`));
    },
  };

  const screen = {
    primary: { x: 0, y: 0, width: 1920, height: 1050 } as Area,
    others: [] as Area[],
    getPrimaryDisplay(): { workArea: Area } {
      return { workArea: this.primary };
    },
    getAllDisplays(): { workArea: Area }[] {
      return [this.primary, ...this.others].map((workArea) => ({ workArea }));
    },
  };

  const safeStorage = {
    isEncryptionAvailable: () => false,
    getSelectedStorageBackend: () => 'basic_text',
    encryptString: (): Buffer => {
      throw new Error('fake electron: no keychain');
    },
    decryptString: (): string => {
      throw new Error('fake electron: no keychain');
    },
  };

  /** System notifications main showed, in order; a test clicks one with emit('click'). */
  const notifications: FakeNotification[] = [];
  class FakeNotification extends EventEmitter {
    static isSupported(): boolean {
      return true;
    }
    shown = false;
    constructor(readonly options: { title: string; body: string }) {
      super();
      notifications.push(this);
    }
    show(): void {
      this.shown = true;
    }
  }
  const Notification = FakeNotification;

  /** Emits 'lock-screen', 'suspend' … when a test says the OS did. */
  const powerMonitor = new EventEmitter();

  const crashReporter = {
    started: [] as Record<string, unknown>[],
    start(options: Record<string, unknown>): void {
      this.started.push(options);
    },
  };

  const contextBridge = {
    exposed: [] as { key: string; api: unknown }[],
    exposeInMainWorld(key: string, api: unknown): void {
      this.exposed.push({ key, api });
    },
  };

  const ipcRenderer = Object.assign(new EventEmitter(), {
    invocations: [] as unknown[][],
    invoke(channel: string, ...args: unknown[]): Promise<unknown> {
      this.invocations.push([channel, ...args]);
      return Promise.resolve({ ok: true, value: 'answered' });
    },
  });

  /** What the test drives and waits on. */
  const fake = {
    windows,
    windowOpened: windowOpened.promise,
    exited: exited.promise,
    quitted: quitted.promise,
    errorBoxShown: errorBoxShown.promise,
    messageBoxShown: messageBoxShown.promise,
    pathOpened: pathOpened.promise,
    notifications,
    /** The button every message box answers with. */
    messageBoxResponse: 0,
    /** The file every open dialog answers with; null answers as cancelled. */
    openDialogFile: null as string | null,
    /** When set, loadURL rejects with it, as Electron does when a load fails. */
    failLoad: null as Error | null,
    /** Runs a listener main registered on app, as Electron would for that event. */
    listeners(event: string): Listener[] {
      return app.listeners(event) as Listener[];
    },
  };
  const BrowserWindow = FakeBrowserWindow;
  return {
    app,
    BrowserWindow,
    protocol,
    session,
    ipcMain,
    Menu,
    dialog,
    shell,
    screen,
    safeStorage,
    crashReporter,
    powerMonitor,
    Notification,
    contextBridge,
    ipcRenderer,
    fake,
    FakeWebContents,
  };
}

export type FakeElectronState = ReturnType<typeof createElectron>;

let current = createElectron();

export let app = current.app;
export let BrowserWindow = current.BrowserWindow;
export let protocol = current.protocol;
export let session = current.session;
export let ipcMain = current.ipcMain;
export let Menu = current.Menu;
export let dialog = current.dialog;
export let shell = current.shell;
export let screen = current.screen;
export let safeStorage = current.safeStorage;
export let crashReporter = current.crashReporter;
export let powerMonitor = current.powerMonitor;
export let Notification = current.Notification;
export let contextBridge = current.contextBridge;
export let ipcRenderer = current.ipcRenderer;
export let fake = current.fake;
export let FakeWebContents = current.FakeWebContents;

/** A fresh Electron for the next launch: nothing registered, nothing recorded. */
export function reset(): void {
  current = createElectron();
  ({
    app,
    BrowserWindow,
    protocol,
    session,
    ipcMain,
    Menu,
    dialog,
    shell,
    screen,
    safeStorage,
    crashReporter,
    powerMonitor,
    Notification,
    contextBridge,
    ipcRenderer,
    fake,
    FakeWebContents,
  } = current);
}
