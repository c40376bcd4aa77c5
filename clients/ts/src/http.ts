/**
 * One JSON request to the service through `fetch`: the key as a bearer token, the body as
 * JSON, a problem+json answer thrown as a ProblemError, and the requests that changed
 * nothing retried (a lost connection, 429, 503) with the same Idempotency-Key.
 */
import { ProblemError, problemOf } from "./problem.js";

export type Fetch = typeof globalThis.fetch;

export interface Transport {
  baseUrl: string;
  fetch: Fetch;
  /** Attempts for a request that may be sent again (default 4). */
  attempts: number;
}

export interface RequestOptions {
  key?: string | undefined;
  body?: unknown;
  idempotencyKey?: string | undefined;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal | undefined;
}

const RETRIED = new Set([429, 503]);

export function url(base: string, path: string, query?: RequestOptions["query"]): string {
  const u = new URL(base.replace(/\/+$/, "") + path);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined) u.searchParams.set(k, String(v));
  }
  return u.toString();
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });
}

function retryAfter(res: Response, attempt: number): number {
  const header = Number(res.headers.get("Retry-After"));
  const base = Number.isFinite(header) && header > 0 ? header * 1000 : 200 * 2 ** attempt;
  return Math.min(base, 5000);
}

/**
 * Send one request; answer its JSON (undefined for 204). A GET, and a POST that carries an
 * Idempotency-Key, are sent again after a lost connection, a 429 or a 503: the key makes
 * the service answer a retry with what it did the first time, never twice.
 */
export async function request<T>(
  t: Transport,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (opts.key) headers["Authorization"] = `Bearer ${opts.key}`;
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  if (opts.idempotencyKey) headers["Idempotency-Key"] = opts.idempotencyKey;
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const safe = method === "GET" || opts.idempotencyKey !== undefined;
  const attempts = safe ? Math.max(1, t.attempts) : 1;
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await t.fetch(url(t.baseUrl, path, opts.query), {
        method,
        headers,
        body,
        signal: opts.signal,
      });
    } catch (e) {
      if (attempt + 1 >= attempts || opts.signal?.aborted) throw e;
      await sleep(200 * 2 ** attempt, opts.signal);
      continue;
    }
    if (RETRIED.has(res.status) && attempt + 1 < attempts) {
      await res.body?.cancel();
      await sleep(retryAfter(res, attempt), opts.signal);
      continue;
    }
    const text = await res.text();
    if (!res.ok) throw problemOf(res.status, res.statusText, text);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

export { ProblemError };
