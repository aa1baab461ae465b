/**
 * The window's words, one catalogue per screen (decision 0049): a screen looks its sentences up by key, so a
 * translation is a file of the same keys, not a rewrite of the screen. English is the catalogue itself; a
 * translation gives any of its keys for a locale ("de-DE") or a language ("de"), and a key it lacks falls
 * back to English. A {name} in a message is filled from the values the screen passes.
 */
import { appLocale } from '../locale';

export type Messages = Readonly<Record<string, string>>;

export type Lookup<M extends Messages> = (
  key: keyof M & string,
  values?: Readonly<Record<string, string | number>>,
) => string;

export function catalogue<M extends Messages>(
  english: M,
  translations: Readonly<Record<string, Partial<Record<keyof M, string>>>> = {},
  locale: string | undefined = appLocale,
): Lookup<M> {
  const chosen = locale ? (translations[locale] ?? translations[locale.split('-')[0] ?? '']) : undefined;
  return (key, values = {}) =>
    (chosen?.[key] ?? english[key] ?? key).replace(/\{(\w+)\}/g, (placeholder, name: string) =>
      name in values ? String(values[name]) : placeholder,
    );
}
