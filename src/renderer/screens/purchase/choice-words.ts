import { menuText as t } from '../../text/menu';

/** The words for "every report of the handle", the same on the menu's choice and on the plan's card. */
export function allChoiceWords(all: number, missing: number): string {
  return t('allChoice', { all, missing: missing === 0 ? t('allOwned') : t('missing', { missing }) });
}
