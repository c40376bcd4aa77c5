/**
 * Live events of a battle, over Server-Sent Events (read through `fetch`, so that the key
 * travels in a header, in browsers and in Node alike) or a WebSocket. After a drop the
 * stream is opened again after the last event received (`Last-Event-ID`, or `?after=` on
 * a WebSocket): each event reaches the caller once, in order. What the battle awaits is
 * told when it changes.
 */
import { sleep, url } from "./http.js";
import { ProblemError, problemOf } from "./problem.js";
import { parseSse } from "./sse.js";
import type { AwaitingChange, Prompt, StreamEvent } from "./types.js";

/** The part of a Battle a subscription needs. */
export interface Followed {
  readonly transport: { baseUrl: string; fetch: typeof globalThis.fetch };
  readonly path: string;
  readonly key: string | undefined;
  saw(version: number, awaiting?: Prompt[]): void;
  view(signal?: AbortSignal): Promise<unknown>;
}

/** What `new WebSocket(url)` needs to be: the browser's, Node 22's, or the `ws` package's. */
export type WebSocketConstructor = new (url: string) => {
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onopen: ((ev: unknown) => void) | null;
  close(code?: number, reason?: string): void;
};

export interface SubscribeOptions {
  /** "sse" (default) or "ws". */
  transport?: "sse" | "ws";
  /** Start after this version (default 0: every event from the start). */
  after?: number;
  /** Called with what the battle awaits in this key's view: once at the start (from a
   * read), then each time it changes. */
  onAwaiting?: (awaiting: Prompt[], change: AwaitingChange) => void;
  /** Called with each drop (the stream is opened again) and with the refusal that ends
   * the subscription (a ProblemError: a revoked key, an unknown battle...). An SSE
   * stream's last problem ends it only with a 401 or 403; another is resumed. */
  onError?: (error: unknown, willRetry: boolean) => void;
  /** The WebSocket class (default: globalThis.WebSocket; on Node 20, the `ws` package's). */
  WebSocket?: WebSocketConstructor;
  /** First wait before opening again after a drop, doubled up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  /** A stream silent this long (no event, no heartbeat) is taken as dropped. */
  idleMs?: number;
  signal?: AbortSignal;
}

/** Ends the subscription. */
export type Unsubscribe = () => void;

const RETRIED_STATUS = new Set([429, 502, 503, 504]);
/** The statuses of an SSE stream's last problem that end the subscription: the key no
 * longer opens the stream (revoked, expired); any other such problem is resumed. */
const FINAL_STATUS = new Set([401, 403]);
/** The problems an SSE stream ended with (`event: problem`), as opposed to refusals. */
const ENDED = new WeakSet<ProblemError>();

type Deliver = (kind: "event" | "awaiting", id: number | undefined, data: unknown) => void;

export function subscribe(
  battle: Followed,
  onEvent: (event: StreamEvent<string>, id: number) => void,
  options: SubscribeOptions = {},
): Unsubscribe {
  const stop = new AbortController();
  options.signal?.addEventListener("abort", () => stop.abort(), { once: true });
  let last = options.after ?? 0;
  let told: { version: number; json: string } | undefined;

  const tell = (change: AwaitingChange): void => {
    if (!options.onAwaiting || stop.signal.aborted) return;
    if (told && change.version < told.version) return; // an older answer arriving late
    const json = JSON.stringify(change.awaiting);
    if (told && json === told.json) {
      told = { version: change.version, json };
      return;
    }
    told = { version: change.version, json };
    options.onAwaiting(change.awaiting, change);
  };

  const deliver: Deliver = (kind, id, data) => {
    if (stop.signal.aborted) return;
    if (kind === "awaiting") {
      const change = data as AwaitingChange;
      battle.saw(change.version, change.awaiting);
      tell(change);
      return;
    }
    if (id === undefined || id <= last) return; // seen before the drop: once only
    last = id;
    battle.saw(id);
    onEvent(data as StreamEvent<string>, id);
  };

  if (options.onAwaiting) {
    battle
      .view(stop.signal)
      .then((v) => {
        const view = v as { battle_id: string; version: number; awaiting?: Prompt[] };
        tell({ battle_id: view.battle_id, version: view.version, awaiting: view.awaiting ?? [] });
      })
      .catch((e: unknown) => {
        if (!stop.signal.aborted) options.onError?.(e, true);
      });
  }

  const open = options.transport === "ws" ? openWs : openSse;
  void (async () => {
    const first = options.retryMs ?? 250;
    let wait = first;
    while (!stop.signal.aborted) {
      try {
        await open(battle, () => last, deliver, options, stop.signal, () => (wait = first));
        if (stop.signal.aborted) return;
        options.onError?.(new Error("the stream ended"), true);
      } catch (e) {
        if (stop.signal.aborted) return;
        const fatal =
          e instanceof ProblemError &&
          (ENDED.has(e) ? FINAL_STATUS.has(e.status) : !RETRIED_STATUS.has(e.status));
        options.onError?.(e, !fatal);
        if (fatal) return;
      }
      await sleep(wait, stop.signal);
      wait = Math.min(wait * 2, options.maxRetryMs ?? 5000);
    }
  })();
  return () => stop.abort();
}

/** One SSE connection, until it drops (resolves) or is refused (throws a ProblemError). */
async function openSse(
  battle: Followed,
  cursor: () => number,
  deliver: Deliver,
  options: SubscribeOptions,
  stop: AbortSignal,
  opened: () => void,
): Promise<void> {
  const idle = new AbortController();
  const onStop = () => idle.abort();
  stop.addEventListener("abort", onStop, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), options.idleMs ?? 60_000);
  };
  try {
    alive();
    const headers: Record<string, string> = {
      Accept: "text/event-stream",
      "Last-Event-ID": String(cursor()),
    };
    if (battle.key) headers["Authorization"] = `Bearer ${battle.key}`;
    const res = await battle.transport.fetch(
      url(battle.transport.baseUrl, `${battle.path}/events/stream`),
      { headers, signal: idle.signal, cache: "no-store" },
    );
    if (!res.ok || !res.body) throw problemOf(res.status, res.statusText, await res.text());
    opened();
    for await (const frame of parseSse(res.body, alive)) {
      if (frame.event === "awaiting") {
        deliver("awaiting", undefined, JSON.parse(frame.data));
      } else if (frame.event === "problem") {
        // The status is the problem's own: a 401 (the key was revoked or expired) ends
        // the subscription; another (a 503, say) is resumed like a drop.
        const problem = problemOf(statusOf(frame.data), "Stream ended", frame.data);
        ENDED.add(problem);
        throw problem;
      } else if (frame.data) {
        deliver("event", frame.id === undefined ? undefined : Number(frame.id), JSON.parse(frame.data));
      }
    }
  } catch (e) {
    if (idle.signal.aborted) return; // stopped, or silent too long: open again
    throw e;
  } finally {
    clearTimeout(timer);
    stop.removeEventListener("abort", onStop);
  }
}

/** The status a stream's problem message carries (500 when it carries none). */
function statusOf(data: string): number {
  try {
    const status = (JSON.parse(data) as { status?: unknown }).status;
    return typeof status === "number" ? status : 500;
  } catch {
    return 500;
  }
}

/** One WebSocket connection, until it closes (resolves) or is refused (throws). */
function openWs(
  battle: Followed,
  cursor: () => number,
  deliver: Deliver,
  options: SubscribeOptions,
  stop: AbortSignal,
  opened: () => void,
): Promise<void> {
  const WS =
    options.WebSocket ??
    (globalThis as unknown as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!WS) {
    return Promise.reject(
      new Error("no WebSocket here: pass options.WebSocket (on Node 20, the `ws` package's)"),
    );
  }
  const query: Record<string, string | number> = { after: cursor() };
  // A browser's WebSocket sends no Authorization header: the key goes in the query.
  if (battle.key) query["access_key"] = battle.key;
  const address = url(battle.transport.baseUrl, `${battle.path}/events/ws`, query).replace(
    /^http/,
    "ws",
  );
  return new Promise((resolve, reject) => {
    const socket = new WS(address);
    let refusal: ProblemError | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(timer);
      timer = setTimeout(() => socket.close(4000, "silent too long"), options.idleMs ?? 60_000);
    };
    const onStop = () => socket.close(1000, "unsubscribed");
    stop.addEventListener("abort", onStop, { once: true });
    alive();
    socket.onopen = () => opened();
    socket.onerror = () => undefined; // the close that follows says what happened
    socket.onmessage = (m) => {
      alive();
      const message = JSON.parse(String(m.data)) as Record<string, unknown> & { kind: string };
      if (message.kind === "event") deliver("event", message["id"] as number, message["event"]);
      else if (message.kind === "awaiting") deliver("awaiting", undefined, message);
      else if (message.kind === "problem") {
        const { kind: _, ...problem } = message;
        refusal = new ProblemError(problem as unknown as ConstructorParameters<typeof ProblemError>[0]);
      }
    };
    socket.onclose = () => {
      clearTimeout(timer);
      stop.removeEventListener("abort", onStop);
      if (refusal) reject(refusal);
      else resolve();
    };
  });
}
