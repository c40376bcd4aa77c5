// The grid at one version, drawn as SVG from the state the API gave this key: only what
// the key may see is there to draw. Every unit is a <g class="unit"> carrying its id,
// side and square in data- attributes (the browser test reads them back).

import {clear, s, sideColor} from "./dom.js";

const CELL = 36;

function frame(svg, width, height) {
  clear(svg);
  svg.setAttribute("viewBox", `0 0 ${width * CELL} ${height * CELL}`);
  // Drawn at most 480 x 640 px: a large map (a skirmish field of 40 x 120) is scaled down.
  const scale = Math.min(1, 480 / (width * CELL), 640 / (height * CELL));
  svg.setAttribute("width", String(Math.round(width * CELL * scale)));
  svg.setAttribute("height", String(Math.round(height * CELL * scale)));
  const lines = [];
  for (let x = 0; x <= width; x++) lines.push(`M${x * CELL} 0V${height * CELL}`);
  for (let y = 0; y <= height; y++) lines.push(`M0 ${y * CELL}H${width * CELL}`);
  svg.append(s("rect", {class: "board", width: width * CELL, height: height * CELL}));
  svg.append(s("path", {class: "gridlines", d: lines.join("")}));
}

const center = (v) => v * CELL + CELL / 2;

function unit(attrs, shapes, title) {
  return s("g", {class: "unit", ...attrs}, [...shapes, s("title", {text: title})]);
}

function label(x, y, text) {
  return s("text", {x: center(x), y: center(y) + 4, class: "label", text});
}

// Quickstart (seed 001): squads, heroes, siege engines, barriers, circles, the watchtower.
function quickstart(svg, st, sides) {
  frame(svg, st.width, st.height);
  for (const c of st.circles) {
    svg.append(s("circle", {
      class: "area circle", "data-id": c.id, "data-side": c.side, cx: center(c.x), cy: center(c.y),
      r: CELL * 0.46, stroke: sideColor(sides, c.side),
    }, [s("title", {text: `magic circle ${c.id} (${c.side})`})]));
  }
  if (st.watchtower) {
    const {x, y} = st.watchtower;
    svg.append(s("path", {
      class: "area watchtower", "data-id": "watchtower",
      d: `M${center(x)} ${y * CELL + 3}L${(x + 1) * CELL - 3} ${(y + 1) * CELL - 3}H${x * CELL + 3}Z`,
    }, [s("title", {text: `watchtower (${(st.watchtower.heroes || []).join(", ") || "empty"})`})]));
  }
  for (const b of st.barriers) {
    svg.append(unit(
      {"data-id": b.id, "data-side": b.side, "data-kind": "barrier", "data-x": b.x, "data-y": b.y},
      [s("rect", {class: "barrier", x: b.x * CELL + 2, y: b.y * CELL + 10, width: CELL - 4,
        height: CELL - 20, fill: sideColor(sides, b.side)}), label(b.x, b.y, `B${b.level}`)],
      `barrier ${b.id} (${b.side}), level ${b.level}`,
    ));
  }
  for (const g of st.engines) {
    const cx = center(g.x), cy = center(g.y), r = CELL * 0.42;
    svg.append(unit(
      {"data-id": g.id, "data-side": g.side, "data-kind": "engine", "data-x": g.x, "data-y": g.y},
      [s("path", {class: "engine", d: `M${cx} ${cy - r}L${cx + r} ${cy}L${cx} ${cy + r}L${cx - r} ${cy}Z`,
        fill: sideColor(sides, g.side)}), label(g.x, g.y, `E${g.level}`)],
      `siege engine ${g.id} (${g.side}), level ${g.level}${g.fired ? ", fired" : ""}`,
    ));
  }
  for (const q of st.squads) {
    const hidden = q.hidden === true;
    const shapes = [s("circle", {
      class: "squad" + (hidden ? " hidden" : ""), cx: center(q.x), cy: center(q.y), r: CELL * 0.4,
      fill: sideColor(sides, q.side),
    }), label(q.x, q.y, `${q.kind[0].toUpperCase()}${q.level}`)];
    for (let i = 0; i < q.wounds; i++) {
      shapes.push(s("circle", {class: "wound", cx: q.x * CELL + 6 + i * 6, cy: q.y * CELL + 6, r: 2.5}));
    }
    if (q.hero) {
      shapes.push(s("circle", {class: "hero-badge", cx: (q.x + 1) * CELL - 6, cy: q.y * CELL + 6, r: 4}));
    }
    svg.append(unit(
      {"data-id": q.id, "data-side": q.side, "data-kind": "squad", "data-x": q.x, "data-y": q.y,
       "data-hidden": hidden ? "true" : null},
      shapes,
      `${q.id}: ${q.side} ${q.kind}, level ${q.level}, ${q.wounds} wound(s)` +
        (q.hero ? `, hero ${q.hero}` : "") + (hidden ? ", hidden from the enemy" : ""),
    ));
  }
  for (const hero of st.heroes) {
    if (hero.status !== "trapped" || hero.x === undefined) continue;
    svg.append(unit(
      {"data-id": hero.id, "data-side": hero.side, "data-kind": "hero", "data-x": hero.x, "data-y": hero.y},
      [s("rect", {class: "hero", x: hero.x * CELL + 8, y: hero.y * CELL + 8, width: CELL - 16,
        height: CELL - 16, fill: sideColor(sides, hero.side)})],
      `hero ${hero.id} (${hero.side}), trapped`,
    ));
  }
}

// Skirmish (seed 000): armies as their footprint, with an arrow for their facing.
const FACING = {
  north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0],
  northeast: [1, -1], northwest: [-1, -1], southeast: [1, 1], southwest: [-1, 1],
};

function skirmish(svg, st, sides) {
  frame(svg, st.width, st.height);
  for (const a of st.armies) {
    if (!a.placed || a.destroyed) continue;
    const [fx, fy] = FACING[a.facing] || [0, -1];
    const diagonal = fx !== 0 && fy !== 0;
    // A grid facing covers width x depth squares from (x, y), turned; a diagonal one is
    // drawn as its front-left square only (its footprint is in RULINGS.md).
    const w = diagonal ? 1 : fx === 0 ? a.width : a.depth;
    const d = diagonal ? 1 : fx === 0 ? a.depth : a.width;
    const cx = (a.x + w / 2) * CELL, cy = (a.y + d / 2) * CELL;
    const arrow = `M${cx} ${cy}l${fx * CELL * 0.6} ${fy * CELL * 0.6}`;
    svg.append(unit(
      {"data-id": a.id, "data-side": a.side, "data-kind": "army", "data-x": a.x, "data-y": a.y,
       "data-facing": a.facing},
      [s("rect", {class: "army" + (a.routed ? " routed" : ""), x: a.x * CELL + 2, y: a.y * CELL + 2,
        width: w * CELL - 4, height: d * CELL - 4, fill: sideColor(sides, a.side)}),
       s("path", {class: "facing", d: arrow}),
       s("text", {x: cx, y: cy - 4, class: "label", text: a.name || a.id})],
      `${a.id} (${a.side}): ${a.army_size} soldiers, facing ${a.facing}` + (a.routed ? ", routed" : ""),
    ));
  }
}

// Tactical (seed 004): characters on their squares (an unseen foe has none), structures.
function tactical(svg, st, sides) {
  frame(svg, st.width, st.height);
  for (const t of st.structures) {
    for (const [x, y] of t.squares) {
      svg.append(s("rect", {class: "area structure", "data-id": t.id, x: x * CELL, y: y * CELL,
        width: CELL, height: CELL}, [s("title", {text: `${t.name || t.id}: STH ${t.sth}/${t.sth_max}`})]));
    }
  }
  for (const c of st.characters) {
    if (c.x === undefined || c.y === undefined) continue;
    svg.append(unit(
      {"data-id": c.id, "data-side": c.side, "data-kind": "character", "data-x": c.x, "data-y": c.y},
      [s("circle", {class: "character" + (c.down ? " down" : ""), cx: center(c.x), cy: center(c.y),
        r: CELL * 0.38, fill: sideColor(sides, c.side)}),
       label(c.x, c.y, (c.name || c.id).slice(0, 2))],
      `${c.name || c.id} (${c.side}): HEA ${c.HEA.cur}/${c.HEA.max}` + (c.dead ? ", dead" : c.down ? ", down" : ""),
    ));
  }
}

const DRAW = {quickstart, skirmish, tactical};

/** Draw `view.state` (a BattleView's state) on `svg`; false when the ruleset has no grid. */
export function renderGrid(svg, ruleset, state, sides) {
  const draw = DRAW[ruleset];
  if (!draw || state.width === undefined) {
    clear(svg);
    return false;
  }
  draw(svg, state, sides);
  return true;
}

/** The sides a state names, in the battle's order. */
export function sidesOf(ruleset, state) {
  if (ruleset === "skirmish") return state.forces.map((f) => f.id);
  if (ruleset === "tactical") return state.sides.map((x) => x.id);
  return state.sides || [];
}

// What the marks mean, per ruleset (shown under the grid).
const KEYS = {
  quickstart: [
    "circle: squad (kind initial, level)", "red dots: wounds", "yellow dot: hero attached",
    "dashed: hidden from the enemy", "diamond: siege engine", "bar: barrier",
    "dashed ring: magic circle", "triangle: watchtower",
  ],
  skirmish: ["box: army footprint", "arrow: facing", "faded: routed"],
  tactical: ["circle: character", "faded: down", "grey squares: structures"],
};

export function legendKeys(ruleset) {
  return KEYS[ruleset] || [];
}
