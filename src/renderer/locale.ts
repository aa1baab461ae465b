/**
 * The person's locale for numbers and dates (decision 0025): the desktop app's own (Electron's app.getLocale(),
 * which main puts on the page's address as ?locale=), else the browser's. Amounts stay in USD whatever it is.
 */

/** A locale tag from the page's query, if it is one Intl knows; otherwise the fallback. */
export function readLocale(search: string, fallback: string | undefined): string | undefined {
  const asked = new URLSearchParams(search).get('locale');
  if (asked) {
    try {
      const [canonical] = Intl.getCanonicalLocales(asked);
      if (canonical) return canonical;
    } catch {
      // Not a locale tag: the browser's is used instead.
    }
  }
  return fallback;
}

export const appLocale: string | undefined =
  typeof window === 'undefined'
    ? undefined
    : readLocale(window.location.search, window.navigator.language || undefined);
