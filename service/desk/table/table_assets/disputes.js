// Disputes at the table (issue 36): the recent log, each event this key may read
// pickable; a dispute raised from the picked versions with a claim in words (and the rule
// it invokes); the disputes this page's own key may read (one about hidden events is its
// raiser's and the referee's only: the service decides, never this page); and on the
// referee's page each open one settled: dismissed, or upheld with its correction (an undo
// to before the disputed version, then the commands that replace it, as JSON).

import {markUndone} from "/table/assets/undone.js";
import {clear, h} from "/viewer/assets/dom.js";

const $ = (id) => document.getElementById(id);
const LOG_SIZE = 20; // the events shown: the last twenty are what a table argues about
const BRIEF = 110; // characters of an event's data shown in its log line

/** What the page keeps across redraws (the stream redraws on every event): the versions
 * ticked, what the referee typed into a settle form, what was last drawn. */
const kept = {picked: new Set(), drafts: new Map(), events: [], after: 0, disputes: "", read: -1};

function shown(value) {
  if (value === null || value === undefined) return "none";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** An event's data in one line: its fields as `name=value`, cut at a field's end. */
function brief(data) {
  let line = "";
  for (const [k, v] of Object.entries(data || {})) {
    if (k === "type") continue;
    const part = `${line ? ", " : ""}${k}=${shown(v)}`;
    if (line.length + part.length > BRIEF) return `${line}, …`;
    line += part;
  }
  return line;
}

function logLine(event) {
  if (event.sealed) {
    return h("li", {"data-version": event.version, class: "sealed"}, [
      `v${event.version} · hidden from you`,
    ]);
  }
  const box = h("input", {type: "checkbox", class: "pick", "data-version": event.version});
  box.checked = kept.picked.has(event.version);
  box.addEventListener("change", () => {
    if (box.checked) kept.picked.add(event.version);
    else kept.picked.delete(event.version);
  });
  const label = h("label", {}, [
    box,
    h("strong", {text: ` v${event.version} ${event.type}`}),
    event.undone ? h("em", {text: " (undone)"}) : null,
    ` ${brief(event.data)}`,
  ]);
  return h("li", {"data-version": event.version, "data-type": event.type,
    class: event.undone ? "undone" : null}, [label]);
}

/** Draw the last events this key may read, newest first, each tickable. Only events
 * not read before are asked for (an undo marks what it undid here, as the log does):
 * the page reads the log once, not twenty events again on every change. */
export async function renderLog(api, version) {
  if (version <= kept.after) return;
  const page = await api.events(Math.max(kept.after, version - LOG_SIZE), LOG_SIZE);
  if (!page.events.length) return;
  for (const event of page.events) {
    const undo = !event.sealed && event.type === "BattleUndone" ? event.data.to_version : null;
    if (undo !== null && undo !== undefined) markUndone(kept.events, undo);
    kept.events.push(event);
  }
  kept.events = kept.events.slice(-LOG_SIZE);
  kept.after = page.events[page.events.length - 1].version;
  const root = clear($("log"));
  for (const event of [...kept.events].reverse()) root.append(logLine(event));
}

function said(d) {
  const versions = d.versions.join(", ");
  const parts = [`raised by ${d.raised_by} at version ${d.raised_at} against version` +
    `${d.versions.length > 1 ? "s" : ""} ${versions}: ${d.claim}` +
    (d.rule ? ` (invoking ${d.rule})` : "")];
  if (d.status !== "open") {
    let ruling = `${d.status} at version ${d.resolved_at}: ${d.ruling}` +
      (d.ruling_rule ? ` (ruled under ${d.ruling_rule})` : "");
    if (d.undo_to) ruling += `; set back to version ${d.undo_to}`;
    if (d.correcting_versions && d.correcting_versions.length) {
      ruling += `; corrected by versions ${d.correcting_versions.join(", ")}`;
    }
    parts.push(ruling);
  }
  return parts.map((text, i) => h("p", {class: i ? "ruling" : "claim", text}));
}

function draft(id, field, fallback) {
  const key = `${id}/${field}`;
  return kept.drafts.has(key) ? kept.drafts.get(key) : fallback;
}

function field(id, name, node) {
  node.dataset.field = name;
  node.addEventListener("input", () => kept.drafts.set(`${id}/${name}`, node.value));
  node.addEventListener("change", () => kept.drafts.set(`${id}/${name}`, node.value));
  return node;
}

/** The correction's commands as ResolveDispute takes them: a JSON list of
 * `{command, dice}`; a bare command (an object with a `type`) is taken as `{command}`. */
function corrections(text) {
  if (!text.trim()) return [];
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new Error(`the correcting commands are not JSON: ${e.message}`);
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.map((item) => (item && typeof item === "object" && "type" in item ? {command: item} : item));
}

function settleForm(d, give, act) {
  const id = d.dispute_id;
  const outcome = field(id, "outcome", h("select", {}, [
    h("option", {value: "dismissed", text: "dismiss"}),
    h("option", {value: "upheld", text: "uphold, with a correction"}),
  ]));
  outcome.value = draft(id, "outcome", "dismissed");
  const ruling = field(id, "ruling", h("input", {maxlength: 2000}));
  ruling.value = draft(id, "ruling", "");
  const rule = field(id, "rule", h("input", {maxlength: 200, size: 10}));
  rule.value = draft(id, "rule", d.rule || "");
  const undoTo = field(id, "undo_to", h("input", {type: "number", min: 1}));
  undoTo.value = draft(id, "undo_to", String(Math.max(1, Math.min(...d.versions) - 1)));
  const commands = field(id, "corrections", h("textarea", {rows: 3, spellcheck: "false",
    placeholder: '[{"command": {"type": "..."}, "dice": [4]}]'}));
  commands.value = draft(id, "corrections", "");
  const button = h("button", {type: "button", "data-settle": id, text: "Settle"});
  button.addEventListener("click", () => act(async () => {
    const command = {type: "ResolveDispute", dispute: id, outcome: outcome.value,
      ruling: ruling.value.trim(), rule: rule.value.trim()};
    if (!command.ruling) throw new Error("write the ruling");
    if (!command.rule) throw new Error("name the rule the ruling rests on");
    if (command.outcome === "upheld") {
      // A dismissal corrects nothing (the service refuses one that would): only an
      // upheld dispute carries the undo and the replacing commands.
      if (undoTo.value.trim()) command.undo_to = Number(undoTo.value);
      const replacing = corrections(commands.value);
      if (replacing.length) command.corrections = replacing;
    }
    await give(command);
    for (const name of ["outcome", "ruling", "rule", "undo_to", "corrections"]) {
      kept.drafts.delete(`${id}/${name}`);
    }
  }));
  return h("div", {class: "settle"}, [
    h("label", {}, ["Outcome ", outcome]),
    h("label", {}, ["Ruling ", ruling]),
    h("label", {}, ["under rule ", rule]),
    h("label", {}, ["Undo to version ", undoTo]),
    h("label", {class: "block"}, ["then these commands (JSON, optional) ", commands]),
    button,
  ]);
}

/** Draw the disputes this page's key may read (read again when the battle moved on); the
 * referee's page settles open ones. */
export async function renderDisputes(api, view, give, act) {
  if (view.version === kept.read) return;
  const role = view.role;
  const disputes = await api.disputes();
  kept.read = view.version;
  $("disputes").dataset.version = String(view.version); // the version the list was read at
  const signature = JSON.stringify([role, disputes]);
  if (signature === kept.disputes) return;
  kept.disputes = signature;
  const root = clear($("disputes"));
  if (!disputes.length) root.append(h("li", {class: "hint", text: "No dispute."}));
  for (const d of disputes) {
    const item = h("li", {class: `dispute ${d.status}`, "data-dispute": d.dispute_id,
      "data-status": d.status, "data-versions": d.versions.join(",")}, [
      h("strong", {text: `${d.dispute_id} · ${d.status}`}),
      ...said(d),
    ]);
    if (role === "referee" && d.status === "open") item.append(settleForm(d, give, act));
    root.append(item);
  }
}

/** Wire the raise form once: the ticked versions, the claim, the rule. */
export function wireRaise(give, act) {
  $("raise-dispute").addEventListener("click", () => act(async () => {
    const versions = [...kept.picked].sort((a, b) => a - b);
    if (!versions.length) throw new Error("tick the events you dispute in the log");
    const claim = $("dispute-claim").value.trim();
    if (!claim) throw new Error("say what you dispute: the claim");
    const command = {type: "RaiseDispute", versions, claim};
    const rule = $("dispute-rule").value.trim();
    if (rule) command.rule = rule;
    await give(command);
    kept.picked.clear();
    for (const box of document.querySelectorAll("#log input.pick")) box.checked = false;
    $("dispute-claim").value = "";
    $("dispute-rule").value = "";
  }));
}
