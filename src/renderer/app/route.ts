/**
 * Navigation in the URL fragment (#/report/rpt_1), so Back, Forward, reload and a copied link work the same in
 * the browser and in Electron's app:// page, where a path would ask the protocol handler for a file. The web
 * host's token also arrives in the fragment (#token=…); the RPC client takes it and clears it before the
 * first route is read, and a route never carries it.
 */
import { createContext, useCallback, useContext, useEffect, useState } from 'react';

export type Route =
  | { screen: 'shelf' }
  | { screen: 'menu'; handle: string }
  | { screen: 'library'; handle?: string }
  | { screen: 'report'; id: string; serviceUrl?: string; compare?: string }
  | { screen: 'purchases'; purchaseId?: string }
  | { screen: 'dossier'; handle?: string }
  | { screen: 'settings' };

export type Navigate = (route: Route) => void;

const SEGMENT: Record<Route['screen'], string> = {
  shelf: 'shelf',
  menu: 'handle',
  library: 'library',
  report: 'report',
  purchases: 'purchases',
  dossier: 'dossiers',
  settings: 'settings',
};

export function routeHash(route: Route): string {
  const base = `#/${SEGMENT[route.screen]}`;
  switch (route.screen) {
    case 'menu':
      return `${base}/${encodeURIComponent(route.handle)}`;
    case 'library':
    case 'dossier':
      return route.handle ? `${base}/${encodeURIComponent(route.handle)}` : base;
    case 'purchases':
      return route.purchaseId ? `${base}/${encodeURIComponent(route.purchaseId)}` : base;
    case 'report': {
      const query = new URLSearchParams();
      if (route.serviceUrl) query.set('service', route.serviceUrl);
      if (route.compare) query.set('compare', route.compare);
      const tail = query.toString();
      return `${base}/${encodeURIComponent(route.id)}${tail ? `?${tail}` : ''}`;
    }
    default:
      return base;
  }
}

function decode(part: string | undefined): string | undefined {
  if (!part) return undefined;
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/** Any fragment to a route: an unknown or broken one is the Shelf, never an error page. */
export function routeFromHash(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const [segment, rawArg] = path.split('/', 2);
  const arg = decode(rawArg);
  switch (segment) {
    case 'handle':
      return arg ? { screen: 'menu', handle: arg } : { screen: 'shelf' };
    case 'library':
      return arg ? { screen: 'library', handle: arg } : { screen: 'library' };
    case 'report': {
      if (!arg) return { screen: 'library' };
      const params = new URLSearchParams(query);
      const [serviceUrl, compare] = [params.get('service'), params.get('compare')];
      return {
        screen: 'report',
        id: arg,
        ...(serviceUrl ? { serviceUrl } : {}),
        ...(compare ? { compare } : {}),
      };
    }
    case 'purchases':
      return arg ? { screen: 'purchases', purchaseId: arg } : { screen: 'purchases' };
    case 'dossiers':
      return arg ? { screen: 'dossier', handle: arg } : { screen: 'dossier' };
    case 'settings':
      return { screen: 'settings' };
    default:
      return { screen: 'shelf' };
  }
}

/** The route in the fragment, following Back/Forward; navigate() adds a history entry. */
export function useHashRoute(): [Route, Navigate] {
  const [route, setRoute] = useState<Route>(() => routeFromHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(routeFromHash(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  const navigate = useCallback<Navigate>((next) => {
    const hash = routeHash(next);
    if (window.location.hash === hash) setRoute(routeFromHash(hash));
    else window.location.hash = hash;
  }, []);
  return [route, navigate];
}

export const NavigateContext = createContext<Navigate>(() => undefined);

export function useNavigate(): Navigate {
  return useContext(NavigateContext);
}
