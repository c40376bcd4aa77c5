// Disputes on the timeline: one mark per dispute the key may read (GET /battles/{id}/disputes),
// at the version it was raised, saying its status; a click selects that version (and the
// version of its ruling, once resolved, has its own mark).

import {clear, h} from "./dom.js";

/** Draw the marks of `list.disputes` into `node`; `select(version)` moves the scrubber. */
export function renderDisputes(node, list, select) {
  clear(node);
  node.hidden = !list.disputes.length;
  for (const d of list.disputes) {
    const what = `${d.dispute_id} · ${d.status} · v${d.versions.join(", v")} disputed: ${d.claim}`;
    const raised = h("button", {type: "button", class: `dispute-mark ${d.status}`,
      "data-dispute": d.dispute_id, "data-version": d.raised_at, title: what,
      text: `⚑ ${d.dispute_id} (${d.status}) v${d.raised_at}`});
    raised.addEventListener("click", () => select(d.raised_at));
    const items = [raised];
    if (d.resolved_at !== null && d.resolved_at !== undefined) {
      const ruling = h("button", {type: "button", class: "dispute-mark ruling",
        "data-dispute": d.dispute_id, "data-version": d.resolved_at,
        title: `${d.dispute_id} ${d.status}: ${d.ruling} (${d.ruling_rule})`,
        text: `⚖ ${d.dispute_id} ruling v${d.resolved_at}`});
      ruling.addEventListener("click", () => select(d.resolved_at));
      items.push(ruling);
    }
    node.append(h("li", {}, items));
  }
}
