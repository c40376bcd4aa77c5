// The narrative entry of the selected version (GET /battles/{id}/narrative) and the dice
// audit of the whole log (GET /battles/{id}/verify), as lists of text.

import {clear, h} from "./dom.js";

function value(v) {
  const text = typeof v === "string" ? v : JSON.stringify(v);
  return text === undefined ? "—" : text.length > 60 ? text.slice(0, 59) + "…" : text;
}

function die(d) {
  return h("li", {class: `die ${d.status}`, "data-status": d.status}, [
    `d${d.sides}: ${d.values.join(", ")} for ${d.purpose || "—"} (${d.source}) `,
    h("span", {class: `badge ${d.status}`, text: d.status}),
  ]);
}

function event(e) {
  if (e.hidden) return h("li", {class: "event hidden", text: `v${e.version}: hidden from you`});
  const details = [];
  // every nested figure of the event, one line each (absent from an older server's answer)
  for (const d of e.details || []) details.push(h("div", {class: "detail", text: d}));
  if (e.dice.length) details.push(h("ul", {class: "dice"}, e.dice.map(die)));
  for (const r of e.rules) details.push(h("div", {class: "rule", text: `rule: ${r}`}));
  for (const r of e.reasons) details.push(h("div", {class: "reason", text: `reason: ${r}`}));
  for (const m of e.modifiers) details.push(h("div", {class: "modifier", text: `modifier: ${m}`}));
  return h("li", {class: "event" + (e.undone ? " undone" : ""), "data-type": e.type}, [
    h("strong", {text: e.type}),
    ` (v${e.version})${e.undone ? " undone" : ""}${e.summary ? ": " + e.summary : ""}`,
    ...details,
  ]);
}

export function renderNarrative(node, narrative, version) {
  clear(node);
  const entry = narrative.entries.find((e) => e.first_version <= version && version <= e.last_version);
  if (!entry) {
    node.append(h("p", {text: "Nothing to tell at this version."}));
    return;
  }
  const who = entry.role ? entry.role + (entry.side ? ` (${entry.side})` : "") : "hidden from you";
  node.append(h("p", {class: "who", text: `${who}${entry.recorded_at ? " · " + entry.recorded_at : ""}`}));
  node.append(h("ul", {class: "events"}, entry.events.map(event)));
  if (entry.changes.length) {
    node.append(h("details", {class: "changes"}, [
      h("summary", {text: `${entry.changes.length + entry.changes_left_out} change(s) in your view`}),
      h("ul", {}, entry.changes.map((c) =>
        h("li", {}, [h("code", {text: c.path}), `: ${value(c.before)} → ${value(c.after)}`]))),
    ]));
  }
}

export function renderAudit(node, report) {
  clear(node);
  // An import signed by a key this service does not hold: the log may hold together
  // and still be a forger's (issue 31, item 7), so the badge does not say "verified".
  const origin = report.origin || {origin: "created", key_ids: []};
  const foreign = origin.origin === "not-verified";
  const verdict = report.ok ? (foreign ? "unvouched" : "verified") : "failed";
  const label = report.ok ? (foreign ? "log holds together" : "log verified") : "verification failed";
  node.append(h("p", {class: `verdict ${verdict}`, "data-ok": String(report.ok)}, [
    h("span", {class: `badge ${verdict}`, text: label}),
    ` ${report.events_checked} events, chain ${report.chain_ok ? "intact" : "broken"}`,
  ]));
  if (foreign) {
    node.append(h("p", {class: "origin not-verified", "data-origin": origin.origin}, [
      h("span", {class: "badge failed", text: "origin not verified by this service"}),
      ` its history was signed by key ${origin.key_ids.join(", ")}`,
    ]));
  }
  node.append(h("ul", {class: "counts"}, [
    h("li", {"data-count": "verified", "data-n": report.dice_checked, text: `${report.dice_checked} server dice recomputed from revealed seeds`}),
    h("li", {"data-count": "pending", "data-n": report.dice_pending, text: `${report.dice_pending} server dice pending (seed not revealed yet)`}),
    h("li", {"data-count": "table", "data-n": report.client_dice, text: `${report.client_dice} dice from the table`}),
    h("li", {"data-count": "sealed", "data-n": report.events_sealed, text: `${report.events_sealed} events sealed for you (links checked)`}),
  ]));
  if (report.first_failure) {
    node.append(h("p", {class: "failure",
      text: `first failure at v${report.first_failure.version}: ${report.first_failure.reason}`}));
  }
}
