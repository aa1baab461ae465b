/** Hands an exported file to the browser's (or Electron's) download, without a round trip through a server. */
import type { ExportedFile } from '../shared/rpc';

export function download(file: ExportedFile): void {
  const body =
    file.encoding === 'base64' ? Uint8Array.from(atob(file.content), (c) => c.charCodeAt(0)) : file.content;
  const url = URL.createObjectURL(new Blob([body], { type: file.mimeType }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = file.filename;
  anchor.click();
  // Revoked later, not at once: the download reads the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
