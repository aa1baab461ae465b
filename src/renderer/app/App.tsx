/** The frame: navigation, app status, theme, and the current screen. */
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useRpc, useRpcQuery } from '../rpc/context';
import { errorCode } from '../rpc/client';
import { rpcQueryKey } from '../rpc/query-key';
import { NavigateContext, routeHash, useHashRoute, type Route } from '../hooks/route';
import { Welcome } from './Welcome';
import { HelpDialog } from './HelpDialog';
import { QueryHelp, isHelpKey } from '../screens/QueryHelp';
import { useTheme } from './theme';
import { ShelfScreen } from '../screens/Shelf';
import { prefetchLibrary } from '../screens/library-data';
import { Loading } from '../components/States';
import { dateTime, plural } from '../format';
import { handleKey } from '../../shared/handle-key';
import { appText as t } from '../text/app';

// The Shelf is the first screen and the only one in the first load; every other screen, and wagmi with the
// wallet code (WalletScope), loads when first opened.
const MenuScreen = lazy(() => import('../screens/Menu').then((m) => ({ default: m.MenuScreen })));
type LibraryModule = typeof import('../screens/Library');
/**
 * The Library's module once preloaded: rendered directly, it does not suspend, and React does not hold the
 * screen back behind the fallback (it keeps a fallback up at least 300 ms once shown).
 */
let libraryModule: LibraryModule | null = null;
const loadLibrary = () =>
  import('../screens/Library').then((m) => {
    libraryModule = m;
    return m;
  });
const LazyLibraryScreen = lazy(() => loadLibrary().then((m) => ({ default: m.LibraryScreen })));
/** The Library's code is fetched once the window is idle after start, at the latest this long after. */
const LIBRARY_PRELOAD_MS = 2_000;
const ReportScreen = lazy(() => import('../screens/Report').then((m) => ({ default: m.ReportScreen })));
const PurchasesScreen = lazy(() =>
  import('../screens/Purchases').then((m) => ({ default: m.PurchasesScreen })),
);
const SettingsScreen = lazy(() => import('../screens/Settings').then((m) => ({ default: m.SettingsScreen })));
const DossierScreen = lazy(() => import('../screens/Dossier').then((m) => ({ default: m.DossierScreen })));
const WalletScope = lazy(() => import('../wallet/WalletScope'));

const NAV: { screen: Route['screen']; label: string }[] = [
  { screen: 'shelf', label: t('navShelf') },
  { screen: 'library', label: t('navLibrary') },
  { screen: 'purchases', label: t('navPurchases') },
  { screen: 'dossier', label: t('navDossiers') },
  { screen: 'settings', label: t('navSettings') },
];

function Screen(props: { route: Route }) {
  const { route } = props;
  switch (route.screen) {
    case 'shelf':
      return <ShelfScreen />;
    case 'menu':
      return (
        <WalletScope>
          {/* One choice per handle: a date range chosen on one is not carried to the next opened. */}
          <MenuScreen key={handleKey(route.handle)} handle={route.handle} />
        </WalletScope>
      );
    case 'library':
      return libraryModule ? (
        <libraryModule.LibraryScreen handle={route.handle} />
      ) : (
        <LazyLibraryScreen handle={route.handle} />
      );
    case 'report':
      return (
        <ReportScreen
          key={`${route.id} ${route.compare ?? ''}`}
          id={route.id}
          serviceUrl={route.serviceUrl}
          compare={route.compare}
        />
      );
    case 'purchases':
      return <PurchasesScreen purchaseId={route.purchaseId} />;
    case 'settings':
      return (
        <WalletScope>
          <SettingsScreen />
        </WalletScope>
      );
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
  const [route, navigate] = useHashRoute();
  const main = useRef<HTMLElement>(null);
  const { mode, client } = useRpc();
  const queryClient = useQueryClient();
  // While the desk's own host, or the service, does not answer, ask again every few seconds: each ask lets
  // core probe the service, and its coming back arrives as an event, so the badge recovers promptly.
  const info = useRpcQuery(
    'app.info',
    {},
    {
      refetchInterval: (query) =>
        query.state.status === 'error' || query.state.data?.online === false ? 3_000 : 15_000,
    },
  );
  const hostDown = errorCode(info.error) === 'host_unreachable';
  const settings = useRpcQuery('settings.get', {});
  useTheme(settings.data?.theme);
  const [helpOpen, setHelpOpen] = useState(false);
  const [helpDialogOpen, setHelpDialogOpen] = useState(false);
  const [syntaxOpen, setSyntaxOpen] = useState(false);
  // After the first paint, not in its way: opening the Library then costs its data alone (issue 31).
  useEffect(() => {
    const idle = requestIdleCallback(() => void loadLibrary().catch(() => undefined), {
      timeout: LIBRARY_PRELOAD_MS,
    });
    return () => cancelIdleCallback(idle);
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isHelpKey(event)) return;
      event.preventDefault();
      setSyntaxOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const welcomeShown = helpOpen || settings.data?.welcomeDismissed === false;

  const closeWelcome = () => {
    setHelpOpen(false);
    if (settings.data?.welcomeDismissed === false) {
      void client
        .call('settings.update', { welcomeDismissed: true })
        .then((fresh) => queryClient.setQueryData(rpcQueryKey('settings.get', {}), fresh));
    }
  };

  // In the commit itself: a screen change is a transition, whose passive effects React runs after a paint,
  // late enough to take focus from a button the person (or a test) had already reached on the new screen.
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [route]);

  return (
    <NavigateContext.Provider value={navigate}>
      <div className="app">
        <header className="topbar">
          <span className="brand">{t('brand')}</span>
          <nav aria-label={t('mainNav')}>
            {/* Links, as navigation is: they say where they go, and the current one says so (aria-current). */}
            {NAV.map((item) => (
              <a
                key={item.screen}
                href={routeHash({ screen: item.screen } as Route)}
                className={activeTab(route) === item.screen ? 'tab active' : 'tab'}
                aria-current={activeTab(route) === item.screen ? 'page' : undefined}
                onClick={(event) => {
                  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
                    return;
                  // navigate() sets the route even when the hash stays the same, so a click on the current
                  // screen's link still takes focus to the top of the screen.
                  event.preventDefault();
                  if (item.screen === 'library') prefetchLibrary(queryClient, client);
                  navigate({ screen: item.screen } as Route);
                }}
              >
                {item.label}
              </a>
            ))}
            <button
              type="button"
              className="tab"
              aria-haspopup="dialog"
              onClick={() => setHelpDialogOpen(true)}
            >
              {t('help')}
            </button>
          </nav>
          <span className="status">
            {info.data?.demo ? (
              <span className="badge" title={t('demoTitle')}>
                {t('demo')}
              </span>
            ) : null}
            {hostDown ? (
              <span
                className="badge badge-warn"
                role="status"
                data-testid="connection"
                title={t('hostDownTitle')}
              >
                {t('hostDown')}
              </span>
            ) : (
              <span
                className={info.data && !info.data.online ? 'badge badge-warn' : 'badge'}
                data-testid="connection"
                title={info.data?.serviceUrl}
              >
                {info.data ? (info.data.online ? t('online') : t('offline')) : t('pending')}
              </span>
            )}
            <span className="muted">{mode === 'electron' ? t('desktop') : t('browser')}</span>
          </span>
        </header>
        {info.data?.databaseRecovered ? (
          <p className="notice" role="alert">
            {t('databaseRecovered', {
              reason: info.data.databaseRecovered.reason,
              path: info.data.databaseRecovered.path,
              outcome: info.data.databaseRecovered.restored
                ? t('databaseRestored', {
                    when: dateTime(info.data.databaseRecovered.restored.takenAt),
                    reports: plural(info.data.databaseRecovered.restored.reports, t('report'), t('reports')),
                  })
                : t('databaseNew'),
            })}
          </p>
        ) : null}
        {info.data?.libraryDamaged ? (
          <p className="notice" role="alert">
            {t('libraryDamaged', { reason: info.data.libraryDamaged.reason })}
          </p>
        ) : null}
        <main ref={main} tabIndex={-1} className="content">
          {welcomeShown && info.data ? (
            <Welcome
              demo={info.data.demo}
              focus={helpOpen}
              onShelf={route.screen === 'shelf'}
              onClose={closeWelcome}
              onSyntax={() => setSyntaxOpen(true)}
            />
          ) : null}
          <Suspense fallback={<Loading label={t('opening')} />}>
            <Screen route={route} />
          </Suspense>
          <QueryHelp open={syntaxOpen} onClose={() => setSyntaxOpen(false)} />
          <HelpDialog
            open={helpDialogOpen}
            version={info.data?.version}
            demo={info.data?.demo ?? false}
            mode={mode}
            onClose={() => setHelpDialogOpen(false)}
            onSyntax={() => {
              setHelpDialogOpen(false);
              setSyntaxOpen(true);
            }}
            onWelcome={() => {
              setHelpDialogOpen(false);
              setHelpOpen(true);
            }}
          />
        </main>
      </div>
    </NavigateContext.Provider>
  );
}
