/**
 * Navigation in the URL fragment (#/report/rpt_1), so Back, Forward, reload and a copied link work the same in
 * the browser and in Electron's app:// page, where a path would ask the protocol handler for a file. The web
 * host's token also arrives in the fragment (#token=…); the RPC client takes it and clears it before the
 * first route is read, and a route never carries it.
 */
import { createContext, startTransition, useCallback, useContext, useEffect, useState } from 'react';
import { routeFromHash, routeHash, type Route } from '../../shared/route';

export { routeHash, type Route };
export type Navigate = (route: Route) => void;

/** The route in the fragment, following Back/Forward; navigate() adds a history entry. */
export function useHashRoute(): [Route, Navigate] {
  const [route, setRoute] = useState<Route>(() => routeFromHash(window.location.hash));
  useEffect(() => {
    // A transition: a screen whose code is still loading keeps the current one up instead of the Suspense
    // fallback, which React, once shown, holds at least 300 ms (the Library at 100k reports showed its rows
    // after 300-500 ms when clicked before its code had been preloaded).
    const onChange = () => startTransition(() => setRoute(routeFromHash(window.location.hash)));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  const navigate = useCallback<Navigate>((next) => {
    const hash = routeHash(next);
    if (window.location.hash === hash) startTransition(() => setRoute(routeFromHash(hash)));
    else window.location.hash = hash;
  }, []);
  return [route, navigate];
}

export const NavigateContext = createContext<Navigate>(() => undefined);

export function useNavigate(): Navigate {
  return useContext(NavigateContext);
}
