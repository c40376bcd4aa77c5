// The table page: with no battle in the fragment, the referee's form to create one; with
// `#battle=ID&key=KEY`, the battle as that key sees it, live: the grid, what it waits for
// as buttons, reach to click for a move, table dice asked for when `dice=table`, the
// recent log and the disputes (raised from it; settled on the referee's page). Every
// failure is shown as the problem's `detail`.

import {createBattle, explain, open} from "/table/assets/api.js";
import {clearPickable, clearReach, drawBoard, listUnits, showPickable, showReach} from "/table/assets/board.js";
import {askDie} from "/table/assets/dice.js";
import {renderDisputes, renderLog, wireRaise} from "/table/assets/disputes.js";
import {renderPrompts} from "/table/assets/prompts.js";
import {renderLinks, wireReferee} from "/table/assets/referee.js";
import {buildCommand, choiceKind, isMove, textFields} from "/table/assets/rules.js";

const $ = (id) => document.getElementById(id);
const page = {api: null, view: null, setup: null, tableDice: false, fresh: new Map(), busy: 0, keysChanged: true};

function status(text) {
  $("status").textContent = text;
}

function fail(error) {
  $("error").textContent = explain(error);
  $("error").hidden = false;
}

/** Run `work`, show its failure; refresh the page after it. */
async function act(work) {
  $("error").hidden = true;
  page.busy += 1;
  page.keysChanged = true; // only this page's own acts change the keys the links show
  document.body.dataset.busy = "true";
  try {
    await work();
  } catch (e) {
    fail(e);
  } finally {
    page.busy -= 1;
    if (page.api) await refresh();
    if (!page.busy) delete document.body.dataset.busy;
  }
}

const give = (command) => page.api.command(command, page.tableDice);
// `sent()`, if given, once the service has taken the command (a card forgets its fields)
const send = (command, sent) => act(async () => {
  await give(command);
  if (sent) sent();
});

function sidesOfView(view) {
  const st = view.state || {};
  const raw = view.ruleset === "skirmish" ? st.forces : st.sides;
  return (raw || []).map((x) => (typeof x === "string" ? x : x.id));
}

function answer(prompt, command, picked, sent) {
  const ruleset = page.view.ruleset;
  $("move-hint").hidden = true;
  clearReach($("grid"));
  if (!isMove(ruleset, command) || !prompt.subject) {
    return send(buildCommand(ruleset, prompt, command, picked, null), sent);
  }
  return act(async () => {
    const reach = await page.api.reach(prompt.subject);
    const hint = $("move-hint");
    hint.hidden = false;
    hint.textContent = reach.squares.length
      ? `Click a green square to move ${prompt.subject} (${reach.movement} ${reach.unit_of_movement} left).`
      : `${prompt.subject} cannot move: ${reach.reason || "no square in reach"}.`;
    showReach($("grid"), page.view.state.width, reach.squares, (square) => {
      hint.hidden = true;
      clearReach($("grid"));
      send(buildCommand(ruleset, prompt, command, picked, square), sent);
    });
  });
}

// How a card takes its fields (rules.js says, per ruleset; fields.js draws them).
const shape = {
  kind: (field) => choiceKind(page.view.ruleset, field),
  texts: (prompt) => textFields(page.view.ruleset, prompt),
  problem: (text) => fail(new Error(text)),
  board: {
    pick: (marked, onSquare) => showPickable($("grid"), marked, onSquare),
    stop: () => clearPickable($("grid")),
  },
};

// A card's command written as JSON (free values no prompt lists), drafted from its choices.
const write = {
  draft: (prompt, type) => {
    const first = Object.fromEntries(Object.entries(prompt.choices || {}).map(([f, v]) => [f, String(v[0])]));
    const command = buildCommand(page.view.ruleset, prompt, type, first, null);
    for (const field of textFields(page.view.ruleset, prompt)) command[field] ??= "";
    return command;
  },
  send: (text) => act(async () => {
    let command;
    try {
      command = JSON.parse(text);
    } catch (e) {
      throw new Error(`the command is not JSON: ${e.message}`);
    }
    await page.api.command(command, page.tableDice);
  }),
};

let pending = null;
/** Read the view again and draw it, one read at a time: `refresh()` (after this page's own
 * act) reads once more if a read is under way; `refresh(version)` (a live change) only
 * while that version is not drawn yet, so a command's several events make one read. */
async function refresh(version) {
  if (pending) {
    if (version === undefined) pending.force = true;
    else pending.want = Math.max(pending.want, version);
    return pending.done;
  }
  pending = {force: false, want: version || 0};
  pending.done = (async () => {
    let drawn = -1;
    do {
      pending.force = false;
      try {
        const view = await page.api.view();
        await redraw(view);
        drawn = view.version;
      } catch (e) {
        fail(e);
        break; // a refused read (a revoked key) is shown, not asked again and again
      }
    } while (pending.force || pending.want > drawn);
    pending = null;
  })();
  return pending.done;
}

/** Draw a view, then what the page reads beside it: the links, the log, the disputes. */
async function redraw(view) {
  draw(view);
  if (view.role === "referee" && page.keysChanged) {
    page.keysChanged = false;
    await renderLinks(page.api, sidesOfView(view), page.fresh, page.tableDice, act);
  }
  await Promise.all([renderLog(page.api, view.version), renderDisputes(page.api, view, give, act)]);
  // The version the whole page shows, its log and disputes read beside the view included:
  // set once they are drawn, not with the header (a screenshot, or a test, taken when it
  // changes saw the "Recent events" one version behind, still being read).
  document.body.dataset.version = String(view.version);
}

function draw(view) {
  const reachShown = $("grid").querySelectorAll("rect.reach").length > 0;
  if (reachShown && page.view && page.view.version === view.version) return; // a move being picked
  page.view = view;
  document.body.dataset.over = view.over ? "true" : "false";
  const who = view.role === "referee" ? "the referee" : `side ${view.side}`;
  $("who").textContent = `${view.title || view.ruleset} · playing as ${who} · version ${view.version}`;
  status(view.over ? "The battle is over." : `Live · version ${view.version}`);
  drawBoard($("grid"), view, page.setup);
  listUnits($("units"), view);
  $("over").hidden = !view.over;
  $("over").textContent = view.over ? "The battle is over." : "";
  $("move-hint").hidden = true;
  const mine = (p) => (view.role === "referee" ? p.role === "referee" : p.role === "side" && (!p.side || p.side === view.side));
  renderPrompts($("awaiting"), view.awaiting || [], mine, answer, write, shape);
  if (view.role === "referee") {
    if (!$("undo-to").value) $("undo-to").value = String(Math.max(1, view.version - 1));
  }
}

async function play(params) {
  page.tableDice = params.get("dice") === "table";
  page.api = open(params.get("battle"), params.get("key"), askDie);
  status("Opening the battle…");
  const [view, setup] = await Promise.all([page.api.view(), page.api.setup().catch(() => null)]);
  page.setup = setup;
  $("play").hidden = false;
  if (view.role === "referee") wireReferee(page.api, send, act);
  wireRaise(give, act);
  page.keysChanged = true; // the referee's links: drawn once now, then after its own acts
  await redraw(view);
  // Read the view again only for a version not drawn yet: the answer to this page's own
  // command is read once (by act), not again when its event and awaiting frame arrive.
  const stale = (version) => !page.view || !(version <= page.view.version);
  page.api.subscribe((version) => {
    if (stale(version)) refresh(version);
  }, (e, retry) => {
    if (!retry) fail(e);
  }, view.version);
}

function wireCreate() {
  $("create").hidden = false;
  status("Create a battle: pick a ruleset and its ready setup, or paste a setup.");
  $("load-template").addEventListener("click", () => act(async () => {
    const res = await fetch(`/table/assets/templates/${$("ruleset").value}.json`);
    if (!res.ok) throw new Error(`no ready setup for ${$("ruleset").value}`);
    $("setup").value = JSON.stringify(await res.json(), null, 1);
  }));
  $("create-battle").addEventListener("click", () => act(async () => {
    let setup;
    try {
      setup = JSON.parse($("setup").value);
    } catch (e) {
      throw new Error(`the setup is not JSON: ${e.message}`);
    }
    const tableDice = $("table-dice").checked;
    const made = await createBattle($("ruleset").value, setup, tableDice, $("title").value.trim());
    const api = open(made.id, made.referee, askDie);
    for (const side of made.sides) {
      const key = await api.mintKey(side, `player of ${side}`);
      page.fresh.set(key.key_id, key.key);
    }
    const fragment = new URLSearchParams({battle: made.id, key: made.referee});
    if (tableDice) fragment.set("dice", "table");
    history.replaceState(null, "", `/table#${fragment}`);
    $("create").hidden = true;
    await play(fragment);
  }));
}

async function main() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  if (params.get("battle") && params.get("key")) await play(params);
  else wireCreate();
}

main().catch(fail);
