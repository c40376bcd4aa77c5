// The viewer's own check of the log, in the browser: the battle's export (as this key
// may see it) verified by verify.js with Web Crypto against the public keys of GET /keys,
// beside the service's own answer (GET /verify), not instead of it. Also checks an export
// file the reader picks.

import {verifyExport} from "./verify.js";
import {clear, h} from "./dom.js";

async function serviceKeys() {
  const r = await fetch("/keys", {cache: "no-store"});
  if (!r.ok) throw new Error(`GET /keys answered ${r.status}`);
  return (await r.json()).keys.map((k) => k.public_key);
}

/** Verify an export's text here; a report as verify.js gives it (never throws). */
export async function checkInBrowser(text) {
  if (!globalThis.crypto || !crypto.subtle) {
    return {ok: false, failed_version: null, reason: "this page has no Web Crypto (it needs HTTPS or localhost)"};
  }
  try {
    return await verifyExport(text, {keys: await serviceKeys()});
  } catch (e) {
    return {ok: false, failed_version: null, reason: `the check could not run: ${e.message}`};
  }
}

/** Show a report: "verified in your browser", or the first failure (version and reason). */
export function renderBrowserVerdict(node, report, source) {
  clear(node);
  const where = report.failed_version == null ? "" : ` at v${report.failed_version}`;
  const label = report.ok ? "verified in your browser" : `browser check failed${where}`;
  const attrs = {class: `verdict browser ${report.ok ? "verified" : "failed"}`, "data-ok": String(report.ok),
    "data-source": source};
  if (report.failed_version != null) attrs["data-failed-version"] = String(report.failed_version);
  const detail = report.ok
    ? ` ${source}: ${report.events} events, ${report.dice_checked} dice recomputed, receipt checked against GET /keys`
    : ` ${source}: ${report.reason}`;
  node.append(h("p", attrs, [h("span", {class: `badge ${report.ok ? "verified" : "failed"}`, text: label}), detail]));
}
