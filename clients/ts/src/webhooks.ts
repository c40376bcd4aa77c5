/**
 * verifyWebhook: check a delivery the service signed as Standard Webhooks says
 * (https://www.standardwebhooks.com): HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.
 * <body>` with the endpoint's secret (`whsec_` + base64), base64 in `webhook-signature`
 * as `v1,<signature>` (several, space-separated, while a secret is rotated), and a
 * timestamp within the tolerance. Web Crypto only: browsers, Node 20, workers.
 */

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

export type WebhookHeaders =
  | { get(name: string): string | null }
  | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Seconds a timestamp may be off the clock, either way (default 300). */
  toleranceSeconds?: number;
  /** The clock, in seconds (default: now). */
  now?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === "function") {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  for (const [k, v] of Object.entries(record)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v.join(" ") : v;
  }
  return undefined;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let raw = "";
  for (const b of bytes) raw += String.fromCharCode(b);
  return btoa(raw);
}

/** Equal strings, in a time that does not depend on where they differ. */
function same(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The `v1,<base64>` signature of a payload (what the service sends). */
export async function signWebhook(
  secret: string,
  id: string,
  timestamp: number | string,
  body: string | Uint8Array,
): Promise<string> {
  let key: Uint8Array<ArrayBuffer>;
  try {
    key = fromBase64(secret.startsWith("whsec_") ? secret.slice(6) : secret);
  } catch {
    throw new WebhookVerificationError("the secret is not base64 (whsec_...)");
  }
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  const subtle = globalThis.crypto.subtle;
  const hmac = await subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${text}`);
  return `v1,${toBase64(new Uint8Array(await subtle.sign("HMAC", hmac, signed)))}`;
}

/**
 * The delivery's payload (parsed JSON) if `secret` signed it recently; otherwise a
 * WebhookVerificationError. `body` must be the raw body as received, not re-serialized.
 */
export async function verifyWebhook<T = unknown>(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: VerifyOptions = {},
): Promise<T> {
  const id = header(headers, "webhook-id");
  const stamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !stamp || !signatures) {
    throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature");
  }
  const at = Number(stamp);
  if (!/^\d+$/.test(stamp) || !Number.isSafeInteger(at)) {
    throw new WebhookVerificationError(`webhook-timestamp is not a number of seconds: ${stamp}`);
  }
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (at < now - tolerance) throw new WebhookVerificationError("the timestamp is too old");
  if (at > now + tolerance) throw new WebhookVerificationError("the timestamp is in the future");
  const expected = (await signWebhook(secret, id, stamp, body)).slice(3);
  const ok = signatures
    .split(" ")
    .some((s) => s.startsWith("v1,") && same(s.slice(3), expected));
  if (!ok) throw new WebhookVerificationError("no signature matches");
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  return JSON.parse(text) as T;
}
