/**
 * A Server-Sent Events parser over a byte stream (the WHATWG event-stream format):
 * frames of `event`, `data` and `id`; comments and `retry` skipped.
 */

export interface SseFrame {
  event: string;
  data: string;
  id: string | undefined;
}

/** The frames of `body`, as they arrive; `onBytes` is called with every chunk read. */
export async function* parseSse(
  body: ReadableStream<Uint8Array>,
  onBytes?: () => void,
): AsyncGenerator<SseFrame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      onBytes?.();
      buffer += decoder.decode(value, { stream: true });
      let end: RegExpExecArray | null;
      const lineEnd = /\r\n|\r|\n/g;
      let start = 0;
      while ((end = lineEnd.exec(buffer)) !== null) {
        // A lone \r at the end of the buffer may be half of \r\n: wait for more.
        if (end[0] === "\r" && end.index === buffer.length - 1) break;
        const line = buffer.slice(start, end.index);
        start = end.index + end[0].length;
        if (line === "") {
          if (data.length > 0) yield { event: event || "message", data: data.join("\n"), id };
          event = "";
          data = [];
          id = undefined;
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
        else if (field === "id") id = value;
      }
      buffer = buffer.slice(start);
    }
  } finally {
    reader.releaseLock();
  }
}
