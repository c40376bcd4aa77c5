// The grid (the replay viewer's drawing, /viewer/assets/grid.js), the units this key sees
// listed beside it, a unit's reach laid over it as squares to click, and every square laid
// over it to pick (a card's list of squares, a wall's sections, clicked on the board).

import {clear, h, s} from "/viewer/assets/dom.js";
import {renderGrid, sidesOf} from "/viewer/assets/grid.js";

/** Draw `view` on `svg` (false when its ruleset has no grid). */
export function drawBoard(svg, view, setup) {
  return renderGrid(svg, view.ruleset, view.state, sidesOf(view.ruleset, view.state), setup);
}

/** The units the state holds with a square: every list of objects with an id, a side, x, y. */
function placed(state) {
  const out = [];
  for (const value of Object.values(state || {})) {
    if (!Array.isArray(value)) continue;
    for (const u of value) {
      if (u && typeof u === "object" && u.id !== undefined && u.side !== undefined &&
          Number.isInteger(u.x) && Number.isInteger(u.y)) out.push(u);
    }
  }
  return out;
}

/** List the units with a square (this side's first) under the grid. */
export function listUnits(root, view) {
  clear(root);
  const units = placed(view.state).sort((a, b) => (a.side === view.side ? 0 : 1) - (b.side === view.side ? 0 : 1));
  for (const u of units) {
    root.append(h("li", {"data-id": u.id, "data-side": u.side, class: u.side === view.side ? "mine" : "",
      text: `${u.name || u.id} (${u.side}) at ${u.x},${u.y}`}));
  }
}

/** Lay `squares` over the grid; a click on one calls `pick([x, y])`. */
export function showReach(svg, width, squares, pick) {
  clearReach(svg);
  const box = svg.viewBox.baseVal;
  const cell = box && box.width ? box.width / width : 36;
  for (const sq of squares) {
    const r = s("rect", {class: "reach", "data-x": sq.x, "data-y": sq.y, x: sq.x * cell, y: sq.y * cell,
      width: cell, height: cell}, [s("title", {text: `${sq.x},${sq.y} (cost ${sq.cost})`})]);
    r.addEventListener("click", () => pick([sq.x, sq.y]));
    svg.append(r);
  }
}

export function clearReach(svg) {
  for (const r of svg.querySelectorAll("rect.reach")) r.remove();
}

/** Lay every square of the grid over it to click (a card's squares picked on the board):
 * a click on one calls `pick([x, y])`; those in `marked` ("x,y") show as picked. False,
 * and nothing laid, when the page has no grid drawn. */
export function showPickable(svg, marked, pick) {
  clearPickable(svg);
  const width = Number(svg.dataset.mapWidth);
  const height = Number(svg.dataset.mapHeight);
  if (!width || !height || !svg.querySelector("rect.board")) return false;
  const box = svg.viewBox.baseVal;
  const cell = box && box.width ? box.width / width : 36;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = `${x},${y}`;
      const r = s("rect", {class: marked.has(at) ? "pickable picked" : "pickable", "data-x": x,
        "data-y": y, x: x * cell, y: y * cell, width: cell, height: cell}, [s("title", {text: at})]);
      r.addEventListener("click", () => pick([x, y]));
      svg.append(r);
    }
  }
  return true;
}

export function clearPickable(svg) {
  for (const r of svg.querySelectorAll("rect.pickable")) r.remove();
}
