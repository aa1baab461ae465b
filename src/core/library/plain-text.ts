/**
 * Text from the service on its way to a terminal or a document: C0 and C1 control characters are what a
 * terminal acts on (ESC starts CSI screen clears and OSC 52 clipboard writes; U+009B and U+009D are the
 * one-character forms of CSI and OSC), so they go, except newline and tab.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
// eslint-disable-next-line no-control-regex -- as above, newline and tab included
const CONTROLS_AND_LINE_BREAKS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g;

/** Drops C0/C1 controls but keeps \n and \t; a CR becomes a newline so "\r\n" and lone "\r" keep breaking lines. */
export function stripControls(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROLS, '');
}

/** For one-line fields (ids, dates, names): every control and line break becomes a space. */
export function oneLine(text: string): string {
  return text.replace(CONTROLS_AND_LINE_BREAKS, ' ');
}
