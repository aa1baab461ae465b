/** The words for "every report of the handle", the same on the menu's choice and on the plan's card. */
export function allChoiceWords(all: number, missing: number): string {
  return `All ${all} (${missing === 0 ? 'all owned' : `${missing} missing`})`;
}
