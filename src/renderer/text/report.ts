/** The Report screen's words that cite a report (CiteReport.tsx). */
import { catalogue } from './catalogue';

export const REPORT_TEXT = {
  citeGroup: 'Cite this report',
  cite: 'Cite',
  copyBibtex: 'Copy BibTeX',
  bibtexCopied: 'BibTeX copied',
  saveBibtex: 'BibTeX file',
  saveCsl: 'CSL-JSON file',
} as const;

export const reportText = catalogue(REPORT_TEXT);
