/**
 * The window's routes and their URL fragments (#/report/rpt_1), one definition for the browser, Electron's
 * app:// page and the deep links the shell turns into a route (electron/deep-links.ts).
 */
export type Route =
  | { screen: 'shelf' }
  | { screen: 'menu'; handle: string }
  | { screen: 'library'; handle?: string }
  | { screen: 'report'; id: string; serviceUrl?: string; compare?: string }
  | { screen: 'purchases'; purchaseId?: string }
  | { screen: 'dossier'; handle?: string }
  | { screen: 'settings' };

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
