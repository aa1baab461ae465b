/** The Dossiers screen's words (Dossier.tsx) and its handle field (HandlePicker.tsx). */
import { catalogue } from './catalogue';

export const DOSSIER_TEXT = {
  title: 'Dossiers',
  titleHandle: 'Dossiers: @{handle}',
  handleToOpen: 'Handle to open',
  handlePlaceholder: 'handle',
  open: 'Open',
  needSecret: 'Dossiers need the library secret.',
  staffEnter: 'Staff enter it once in',
  settings: 'Settings',
  staffEnd: "; it stays in the desk's core and is never shown again.",
  refused: 'The service refused the library secret. Enter the right one in',
  refusedEnd: '; opening the dossier again will not help until then.',
  choose: 'Choose or type a handle to open its dossier.',
  reading: 'Reading the dossier…',
} as const;

export const dossierText = catalogue(DOSSIER_TEXT);
