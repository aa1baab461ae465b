/** The frame: navigation, app status, theme, and the current screen. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useRpc, useRpcQuery } from '../rpc/context';
import { NavigateContext, type Route } from './route';
import { useTheme } from './theme';
import { ShelfScreen } from '../screens/Shelf';
import { MenuScreen } from '../screens/Menu';
import { LibraryScreen } from '../screens/Library';
import { ReportScreen } from '../screens/Report';
import { PurchasesScreen } from '../screens/Purchases';
import { SettingsScreen } from '../screens/Settings';
import { DossierScreen } from '../screens/Dossier';

const NAV: { screen: Route['screen']; label: string }[] = [
  { screen: 'shelf', label: 'Shelf' },
  { screen: 'library', label: 'Library' },
  { screen: 'purchases', label: 'Purchases' },
  { screen: 'dossier', label: 'Dossiers' },
  { screen: 'settings', label: 'Settings' },
];

function Screen(props: { route: Route }) {
  const { route } = props;
  switch (route.screen) {
    case 'shelf':
      return <ShelfScreen />;
    case 'menu':
      return <MenuScreen handle={route.handle} />;
    case 'library':
      return <LibraryScreen handle={route.handle} />;
    case 'report':
      return <ReportScreen id={route.id} serviceUrl={route.serviceUrl} />;
    case 'purchases':
      return <PurchasesScreen />;
    case 'settings':
      return <SettingsScreen />;
    case 'dossier':
      return <DossierScreen key={route.handle ?? ''} handle={route.handle} />;
  }
}

function activeTab(route: Route): Route['screen'] {
  if (route.screen === 'menu') return 'shelf';
  if (route.screen === 'report') return 'library';
  return route.screen;
}

export function App() {
  const [route, setRoute] = useState<Route>({ screen: 'shelf' });
  const main = useRef<HTMLElement>(null);
  const { mode } = useRpc();
  const info = useRpcQuery('app.info', {}, { refetchInterval: 15_000 });
  const settings = useRpcQuery('settings.get', {});
  useTheme(settings.data?.theme);

  const navigate = useCallback((next: Route) => {
    setRoute(next);
    window.scrollTo(0, 0);
  }, []);

  useEffect(() => {
    main.current?.focus({ preventScroll: true });
  }, [route]);

  return (
    <NavigateContext.Provider value={navigate}>
      <div className="app">
        <header className="topbar">
          <span className="brand">Intel Desk</span>
          <nav aria-label="Main">
            {NAV.map((item) => (
              <button
                key={item.screen}
                type="button"
                className={activeTab(route) === item.screen ? 'tab active' : 'tab'}
                aria-current={activeTab(route) === item.screen ? 'page' : undefined}
                onClick={() => navigate({ screen: item.screen } as Route)}
              >
                {item.label}
              </button>
            ))}
          </nav>
          <span className="status">
            {info.data?.demo ? <span className="badge">demo</span> : null}
            <span className="badge" title={info.data?.serviceUrl}>
              {info.data ? (info.data.online ? 'online' : 'offline') : '…'}
            </span>
            <span className="muted">{mode === 'electron' ? 'desktop' : 'browser'}</span>
          </span>
        </header>
        {info.data?.databaseRecovered ? (
          <p className="notice" role="alert">
            The local database could not be used ({info.data.databaseRecovered.reason}); it was moved to{' '}
            {info.data.databaseRecovered.path} and a new one was started.
          </p>
        ) : null}
        <main ref={main} tabIndex={-1} className="content">
          <Screen route={route} />
        </main>
      </div>
    </NavigateContext.Provider>
  );
}
