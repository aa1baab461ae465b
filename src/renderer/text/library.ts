/** The Library screen's words for exporting it as a Markdown folder (LibraryExport.tsx). */
import { catalogue } from './catalogue';

export const LIBRARY_TEXT = {
  exportHandle: 'Export @{handle} as Markdown…',
  exportAll: 'Export library as Markdown…',
  exporting: 'Exporting…',
  exported: 'Wrote {reports} to {dir}.',
  oneReport: '1 report',
  reports: '{count} reports',
} as const;

export const libraryText = catalogue(LIBRARY_TEXT);
