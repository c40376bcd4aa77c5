// The replay viewer: open a battle with a key, scrub its versions, follow it live.
// The key is taken from the form or the URL fragment (#battle=ID&key=KEY: a fragment
// never reaches the server, so the key stays out of its logs), then dropped from the
// address bar; it is only ever sent in the Authorization header.

import {Api} from "./api.js";
import {renderChart} from "./chart.js";
import {renderGrid, sidesOf} from "./grid.js";
import {renderLegend} from "./legend.js";
import {Zoom} from "./zoom.js";
import {renderAudit, renderNarrative} from "./panels.js";

const $ = (id) => document.getElementById(id);
const ui = {
  form: $("open"), battle: $("battle-id"), key: $("access-key"), status: $("status"),
  viewer: $("viewer"), scrubber: $("scrubber"), label: $("version-label"), follow: $("follow"),
  live: $("live"), grid: $("grid"), legend: $("legend"), noGrid: $("no-grid"), phase: $("phase"),
  boardTitle: $("board-title"), chart: $("chart"), strengthNow: $("strength-now"),
  measure: $("measure"), audit: $("audit-report"), narrative: $("narrative-entry"),
  narrativeVersion: $("narrative-version"),
};

const zoom = new Zoom(ui.grid);
zoom.buttons({zoomIn: $("zoom-in"), zoomOut: $("zoom-out"), fit: $("zoom-fit"), whole: $("zoom-whole")});

let session = null; // {api, battle, timeline, selected, head, abort}

function say(text, kind) {
  ui.status.textContent = text;
  ui.status.className = kind || "";
}

function fragment() {
  const p = new URLSearchParams(location.hash.slice(1));
  return {battle: p.get("battle"), key: p.get("key")};
}

async function open(battleId, key) {
  if (session) session.abort.abort();
  const api = new Api(battleId, key);
  say("Loading…");
  document.body.dataset.state = "loading";
  try {
    const [battle, timeline, setup] = await Promise.all([api.battle(), api.timeline(1), api.setup()]);
    session = {api, battle, timeline, setup, selected: 0, head: timeline.version, abort: new AbortController()};
  } catch (e) {
    say(`Cannot open battle ${battleId}: ${e.message}`, "error");
    document.body.dataset.state = "error";
    return;
  }
  history.replaceState(null, "", `#battle=${encodeURIComponent(battleId)}`);
  ui.viewer.hidden = false;
  ui.measure.textContent = `(${session.timeline.measure})`;
  say(`${session.battle.title || battleId} · ${session.battle.ruleset} · as ${session.battle.role}` +
      (session.battle.side ? ` (${session.battle.side})` : ""));
  setHead(session.head);
  await select(session.head);
  refreshAudit();
  followLive(session);
}

function setHead(head) {
  session.head = head;
  ui.scrubber.max = String(head);
  ui.viewer.dataset.head = String(head);
}

let request = 0;
async function select(version) {
  const mine = ++request;
  const s = session;
  version = Math.max(1, Math.min(version, s.head));
  ui.scrubber.value = String(version);
  ui.label.textContent = `v${version} / ${s.head}`;
  try {
    const [view, narrative] = await Promise.all([s.api.stateAt(version), s.api.narrative(version, version)]);
    if (mine !== request || s !== session) return; // a later selection won
    s.selected = version;
    const sides = sidesOf(view.ruleset, view.state);
    const drawn = renderGrid(ui.grid, view.ruleset, view.state, sides, s.setup);
    ui.grid.hidden = !drawn;
    ui.noGrid.hidden = drawn;
    if (drawn) zoom.drawn();
    renderLegend(ui.legend, ui.grid, sides, drawn);
    ui.phase.textContent = describe(view);
    renderChart(ui.chart, ui.strengthNow, s.timeline, version);
    renderNarrative(ui.narrative, narrative, version);
    ui.narrativeVersion.textContent = `(v${version})`;
    ui.viewer.dataset.shownVersion = String(version);
    document.body.dataset.state = "ready";
  } catch (e) {
    if (mine === request) say(`Cannot read version ${version}: ${e.message}`, "error");
  }
}

function describe(view) {
  const st = view.state;
  if (view.ruleset === "warfare") return describeWarfare(view);
  if (view.ruleset === "phased") return describePhased(view);
  const parts = [`round ${st.round}`, st.phase];
  if (st.step && st.step !== "none") parts.push(st.step);
  if (view.over) parts.push(`over${st.winner ? ": " + st.winner + " wins" : ""}`);
  return parts.join(" · ");
}

function over(st) {
  return `over${st.winner ? ": " + st.winner + " wins" : ""}`;
}

// Warfare has no phases: a round is the sides' turns in the order the roll-off gave.
function describeWarfare(view) {
  const st = view.state;
  if (st.over) return `round ${st.round} · ${over(st)}`;
  if (!st.round) return "before round 1";
  return `round ${st.round} · ${st.active ? st.active + "'s turn" : "between turns"}` +
    (st.order.length ? ` (order: ${st.order.join(", ")})` : "");
}

// Phased: the view's `now` says the phase and who acts (or which sides still declare).
function describePhased(view) {
  const st = view.state, now = st.now;
  if (now.stage === "over") return `round ${st.round} · ${over(st)}`;
  if (now.stage === "declare") {
    return `round ${st.round} · starting phase · declaring: ${now.declaring.join(", ") || "nobody"}`;
  }
  let who = now.combatant ? `${now.combatant} (${now.side}) acts now: ${now.action}, ${now.kind}` : "nobody acts now";
  // A call to settle first (or an outcome only the referee records) holds the action.
  if (now.by && now.by !== now.side) who += ` · waits for ${now.by} (${now.command})`;
  return `round ${st.round} · phase ${now.phase} · ${who}`;
}

let auditTimer = null;
function refreshAudit() {
  clearTimeout(auditTimer);
  const s = session;
  auditTimer = setTimeout(async () => {
    try {
      const report = await s.api.verify();
      if (s === session) renderAudit(ui.audit, report);
    } catch (e) {
      ui.audit.textContent = `The audit failed: ${e.message}`;
    }
  }, 300);
}

// New versions from the live stream: extend the timeline, move along if following.
let growing = null;
async function grow(s, version) {
  if (version <= s.head) return;
  if (growing) return growing.then(() => grow(s, version));
  growing = (async () => {
    const last = s.timeline.points.length ? s.timeline.points[s.timeline.points.length - 1].version : 0;
    const more = await s.api.timeline(last + 1);
    if (s !== session) return;
    s.timeline.points.push(...more.points);
    s.timeline.version = more.version;
    const wasAtHead = s.selected === s.head;
    setHead(more.version);
    if (ui.follow.checked && wasAtHead) await select(more.version);
    else renderChart(ui.chart, ui.strengthNow, s.timeline, s.selected);
    refreshAudit();
  })().finally(() => { growing = null; });
  return growing;
}

async function followLive(s) {
  let after = s.head;
  while (s === session && !s.abort.signal.aborted) {
    ui.live.textContent = "live";
    ui.live.className = "badge live";
    try {
      await s.api.follow(after, (v) => { after = Math.max(after, v); grow(s, v); }, s.abort.signal);
    } catch (e) {
      if (s.abort.signal.aborted) return;
      if (e.status && e.status !== 429 && e.status < 500) {
        ui.live.textContent = `not live: ${e.message}`;
        ui.live.className = "badge";
        return;
      }
    }
    ui.live.textContent = "reconnecting";
    ui.live.className = "badge";
    await new Promise((r) => setTimeout(r, 2000));
  }
}

ui.form.addEventListener("submit", (e) => {
  e.preventDefault();
  open(ui.battle.value.trim(), ui.key.value.trim());
});

let scrubTimer = null;
ui.scrubber.addEventListener("input", () => {
  ui.label.textContent = `v${ui.scrubber.value} / ${session.head}`;
  clearTimeout(scrubTimer);
  scrubTimer = setTimeout(() => select(Number(ui.scrubber.value)), 60);
});
$("prev").addEventListener("click", () => select(session.selected - 1));
$("next").addEventListener("click", () => select(session.selected + 1));

const given = fragment();
if (given.battle) ui.battle.value = given.battle;
if (given.battle && given.key) open(given.battle, given.key);
