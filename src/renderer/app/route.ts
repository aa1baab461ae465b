/** In-memory navigation: the URL fragment carries the host token, so routes live in state. */
import { createContext, useContext } from 'react';

export type Route =
  | { screen: 'shelf' }
  | { screen: 'menu'; handle: string }
  | { screen: 'library'; handle?: string }
  | { screen: 'report'; id: string; serviceUrl?: string }
  | { screen: 'purchases' }
  | { screen: 'dossier'; handle?: string }
  | { screen: 'settings' };

export type Navigate = (route: Route) => void;

export const NavigateContext = createContext<Navigate>(() => undefined);

export function useNavigate(): Navigate {
  return useContext(NavigateContext);
}
