// A prompt card's fields beyond a select per choice: a choice taken as any of those
// listed (tactical's `surprised`: checkboxes, none ticked for nobody), a list of squares
// whose first is one of those listed (a wall's `sections`: the origin picked, more squares
// added and removed, typed or clicked on the board's grid), and a free text the prompt
// cannot list (a ruling's `reason`). Which field is which comes from rules.js; the values
// typed, and a list being picked on the board, survive the redraws a live change makes,
// while the prompt stands.

import {h} from "/viewer/assets/dom.js";

/** prompt id / field -> what was picked or typed (a string, or a list of strings). */
const drafts = new Map();

const key = (prompt, field) => `${prompt.id}/${field}`;
/** The list of squares ("prompt id/field") the board's clicks add to, or null: one at a
 * time, so a click on the grid is never two cards' square. */
let picking = null;

function kept(prompt, field, fallback) {
  const k = key(prompt, field);
  return drafts.has(k) ? drafts.get(k) : fallback;
}

/** Forget what was picked and typed for `prompt` (its command was taken). */
export function forget(prompt) {
  for (const k of [...drafts.keys()]) {
    if (k.startsWith(`${prompt.id}/`)) drafts.delete(k);
  }
  if (picking !== null && picking.startsWith(`${prompt.id}/`)) picking = null;
}

/** Forget what was typed for prompts no longer awaited. */
export function forgetBut(prompts) {
  const ids = new Set(prompts.map((p) => p.id));
  const gone = (k) => !ids.has(k.slice(0, k.lastIndexOf("/")));
  for (const k of [...drafts.keys()]) {
    if (gone(k)) drafts.delete(k);
  }
  if (picking !== null && gone(picking)) picking = null;
}

function one(prompt, field, values) {
  const select = h("select", {"data-field": field}, values.map((v) => h("option", {value: v, text: v})));
  const was = kept(prompt, field, null);
  if (was !== null && values.includes(was)) select.value = was;
  select.addEventListener("change", () => drafts.set(key(prompt, field), select.value));
  return {node: h("label", {}, [`${field} `, select]), read: () => select.value};
}

function several(prompt, field, values) {
  const ticked = new Set(kept(prompt, field, []));
  const boxes = values.map((v) => {
    const box = h("input", {type: "checkbox", value: v, "data-several": field});
    box.checked = ticked.has(v);
    return box;
  });
  const read = () => boxes.filter((b) => b.checked).map((b) => b.value);
  for (const box of boxes) box.addEventListener("change", () => drafts.set(key(prompt, field), read()));
  const node = h("fieldset", {class: "several", "data-field-set": field}, [
    h("legend", {text: `${field} (any of them, or none)`}),
    ...boxes.map((box) => h("label", {}, [box, ` ${box.value}`])),
  ]);
  return {node, read};
}

const SQUARE = /^\s*(\d+)\s*,\s*(\d+)\s*$/;

function squares(prompt, field, values, problem, board) {
  const origin = one(prompt, field, values);
  const more = [...kept(prompt, `${field}+`, [])];
  const list = h("ol", {class: "squares", "data-squares": field});
  const save = () => drafts.set(key(prompt, `${field}+`), [...more]);
  const id = key(prompt, field);
  const toggle = h("button", {type: "button", "data-pick-squares": field});
  // Laid again after each change of the list (its squares, the origin's too, marked) and
  // after each redraw of the grid (a live change draws it afresh, and this card with it).
  const onBoard = () => {
    toggle.textContent = picking === id ? "Done picking on the board" : "Pick on the board";
    if (picking !== id) return;
    const laid = board.pick(new Set([origin.read(), ...more]), ([x, y]) => {
      more.push(`${x},${y}`);
      save();
      draw();
    });
    if (!laid) {
      picking = null;
      toggle.textContent = "Pick on the board";
      problem("this battle has no grid drawn to pick squares on: type them (x,y)");
    }
  };
  origin.node.querySelector("select").addEventListener("change", onBoard);
  toggle.addEventListener("click", () => {
    picking = picking === id ? null : id;
    if (picking === null) board.stop();
    onBoard();
  });
  const draw = () => {
    list.replaceChildren(...more.map((sq, i) => {
      const remove = h("button", {type: "button", "data-remove-square": sq, text: "remove"});
      remove.addEventListener("click", () => {
        more.splice(i, 1);
        save();
        draw();
      });
      return h("li", {"data-square": sq}, [`${sq} `, remove]);
    }));
    onBoard();
  };
  const input = h("input", {size: 6, placeholder: "x,y", "data-add-square": field,
    "aria-label": `a square to add to ${field} (x,y)`});
  const add = h("button", {type: "button", "data-add": field, text: "Add the square"});
  const adding = () => {
    const m = SQUARE.exec(input.value);
    if (!m) return problem(`a square reads x,y (two whole numbers), not "${input.value}"`);
    more.push(`${Number(m[1])},${Number(m[2])}`);
    input.value = "";
    save();
    draw();
    return undefined;
  };
  add.addEventListener("click", adding);
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      adding();
    }
  });
  draw();
  const node = h("div", {class: "squares-field"}, [
    origin.node,
    h("span", {class: "hint", text: " the first; then, in order:"}),
    list,
    h("label", {}, ["add ", input]), add, toggle,
  ]);
  return {node, read: () => [origin.read(), ...more]};
}

function text(prompt, field) {
  const input = h("input", {"data-text": field, maxlength: 2000});
  input.value = kept(prompt, field, "");
  input.addEventListener("input", () => drafts.set(key(prompt, field), input.value));
  return {node: h("label", {class: "text"}, [`${field} `, input]), read: () => input.value};
}

/** The fields of `prompt`'s card: {nodes, read()}, read() giving field -> value picked
 * or typed (a list for a field of several values). `kind(field)` says how a choice is
 * taken ("one", "several", "squares"), `texts` the free text fields; `problem(text)` shows
 * a mistake in what was typed; `board` lays the grid's squares out to click
 * (`pick(marked, onSquare)`, false without a grid) and takes them away (`stop()`). */
export function cardFields(prompt, kind, texts, problem, board) {
  const fields = [];
  for (const [field, values] of Object.entries(prompt.choices || {})) {
    const how = kind(field);
    if (how === "several") fields.push([field, several(prompt, field, values)]);
    else if (how === "squares") fields.push([field, squares(prompt, field, values, problem, board)]);
    else fields.push([field, one(prompt, field, values)]);
  }
  for (const field of texts) fields.push([field, text(prompt, field)]);
  return {
    nodes: fields.map(([, f]) => f.node),
    read: () => Object.fromEntries(fields.map(([field, f]) => [field, f.read()])),
  };
}
