/**
 * The web host's event stream (server-sent events on GET /events), read with fetch because the stream
 * needs the run token in a header and EventSource cannot send one. A stream that drops (the host restarted,
 * the machine slept) is opened again after the delay the host asked for, growing while it keeps failing;
 * once it is back, `onResumed` says that changes may have been missed meanwhile.
 */
import { TOKEN_HEADER } from '../../shared/bridge';
import { EVENTS_PATH } from '../../shared/events';

const MAX_RETRY_MS = 15_000;

interface StreamOptions {
  token: string;
  /** The web host's address; the page's own by default. */
  base?: string;
  onEvent: (data: unknown) => void;
  onResumed: () => void;
}

/** Splits server-sent event text into the data of each complete event; returns what is left over. */
export function takeEvents(buffer: string, onData: (data: string) => void, onRetry: (ms: number) => void) {
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      else if (line.startsWith('retry:')) {
        const ms = Number(line.slice(6).trim());
        if (Number.isInteger(ms) && ms > 0) onRetry(ms);
      }
    }
    if (data.length > 0) onData(data.join('\n'));
  }
  return rest;
}

/** Opens the stream and keeps it open until the returned function is called. */
export function openEventStream(options: StreamOptions): () => void {
  let stopped = false;
  let controller: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let retryMs = 1_000;
  let failures = 0;
  let everOpen = false;

  const schedule = () => {
    if (stopped) return;
    failures += 1;
    const delay = Math.min(MAX_RETRY_MS, retryMs * 2 ** Math.min(failures - 1, 4));
    timer = setTimeout(() => void connect(), delay);
  };

  async function connect(): Promise<void> {
    controller = new AbortController();
    try {
      const response = await fetch(`${options.base ?? '.'}${EVENTS_PATH}`, {
        headers: { [TOKEN_HEADER]: options.token, Accept: 'text/event-stream' },
        signal: controller.signal,
        cache: 'no-store',
      });
      if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
      if (everOpen) options.onResumed();
      everOpen = true;
      failures = 0;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer = takeEvents(
          buffer + value,
          (data) => {
            let event: unknown;
            try {
              event = JSON.parse(data);
            } catch {
              return; // Not JSON: not an event this window can use.
            }
            options.onEvent(event);
          },
          (ms) => (retryMs = ms),
        );
      }
    } catch {
      // Dropped or refused: tried again below, unless the page stopped listening.
    }
    schedule();
  }

  void connect();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    controller?.abort();
  };
}
