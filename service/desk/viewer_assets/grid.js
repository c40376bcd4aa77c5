// The grid at one version, drawn as SVG from the state the API gave this key: only what
// the key may see is there to draw. Every unit is a <g class="unit"> carrying its id,
// side and square in data- attributes (the browser test reads them back); so is every
// map feature (a tactical terrain square, structure square; a skirmish zone band).

import {clear, s, sideColor} from "./dom.js";
import {CELL, largeRing, squadLetters, squadShape, undeadBadge} from "./marks.js";

function frame(svg, width, height) {
  clear(svg);
  svg.setAttribute("viewBox", `0 0 ${width * CELL} ${height * CELL}`);
  // The map's size in squares: zoom.js fits the view to it (and the panel) after drawing.
  svg.dataset.mapWidth = String(width);
  svg.dataset.mapHeight = String(height);
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
    const shapes = [
      squadShape(q.kind, q.x, q.y, sideColor(sides, q.side), hidden ? ["hidden"] : []),
      label(q.x, q.y, squadLetters(q.kind, q.level)),
    ];
    if (q.large) shapes.unshift(largeRing(q.x, q.y)); // under the squad's shape
    if (q.undead) shapes.push(undeadBadge(q.x, q.y));
    for (let i = 0; i < q.wounds; i++) {
      shapes.push(s("circle", {class: "wound", cx: q.x * CELL + 6 + i * 6, cy: q.y * CELL + 6, r: 2.5}));
    }
    if (q.hero) {
      shapes.push(s("circle", {class: "hero-badge", cx: (q.x + 1) * CELL - 6, cy: q.y * CELL + 6, r: 4}));
    }
    svg.append(unit(
      {"data-id": q.id, "data-side": q.side, "data-kind": "squad", "data-x": q.x, "data-y": q.y,
       "data-hidden": hidden ? "true" : null, "data-squad-kind": q.kind,
       "data-large": q.large ? "true" : null, "data-undead": q.undead ? "true" : null},
      shapes,
      `${q.id}: ${q.side} ${q.large ? "large " : ""}${q.undead ? "undead " : ""}${q.kind}, ` +
        `level ${q.level}, ${q.wounds} wound(s)` +
        (q.hero ? `, hero ${q.hero}` : "") + (hidden ? ", hidden from the enemy" : ""),
    ));
  }
  for (const hero of st.heroes) {
    if (hero.status !== "trapped" || hero.x === undefined) continue;
    svg.append(unit(
      {"data-id": hero.id, "data-side": hero.side, "data-kind": "hero", "data-x": hero.x, "data-y": hero.y},
      [s("rect", {class: "hero", x: hero.x * CELL + 8, y: hero.y * CELL + 8, width: CELL - 16,
        height: CELL - 16, fill: sideColor(sides, hero.side)}), label(hero.x, hero.y, "H")],
      `hero ${hero.id} (${hero.side}), trapped`,
    ));
  }
}

// Skirmish (seed 000): armies as their footprint, with an arrow for their facing.
const FACING = {
  north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0],
  northeast: [1, -1], northwest: [-1, -1], southeast: [1, 1], southwest: [-1, 1],
};

// A force's zones ("The Battlefield") across the whole map, in rows the view computed (the
// ranged, camp and command zones; null: off the map): shaded in its side's colour, and a
// line in that colour where its melee zone begins. The command zone's place along the
// front is the leader's and not modelled, so it is a dashed band.
function zoneBands(svg, st, sides) {
  const names = {ranged: "ranged zone", camp: "camp zone", command: "command zone"};
  for (const f of st.forces) {
    const rows = (f.zones && f.zones.rows) || {};
    const colour = sideColor(sides, f.id);
    for (const zone of ["camp", "ranged", "command"]) {
      const band = rows[zone];
      if (!band) continue;
      const [from, to] = band;
      svg.append(s("rect", {
        class: `area zone-band ${zone}`, "data-side": f.id, "data-zone": zone, "data-from": from,
        "data-to": to, x: 0, y: from * CELL, width: st.width * CELL, height: (to - from) * CELL,
        fill: colour, stroke: zone === "command" ? colour : null,
      }, [s("title", {text: `${f.id}'s ${names[zone]} (rows ${from} to ${to - 1})`})]));
    }
    if (rows.melee_edge !== null && rows.melee_edge !== undefined) {
      const y = rows.melee_edge * CELL;
      svg.append(s("path", {
        class: "melee-edge", "data-side": f.id, "data-row": rows.melee_edge,
        d: `M0 ${y}H${st.width * CELL}`, stroke: colour,
      }, [s("title", {text: `${f.id}'s edge of the melee zone`})]));
    }
  }
}

const SMALL_SIZES = new Set(["fine", "diminutive", "tiny", "small", "medium"]);

function skirmish(svg, st, sides) {
  frame(svg, st.width, st.height);
  zoneBands(svg, st, sides);
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
    // Larger than medium creatures (seed 000 "Army Type", the spec's size): a double border.
    const large = !SMALL_SIZES.has(a.size || "medium");
    svg.append(unit(
      {"data-id": a.id, "data-side": a.side, "data-kind": "army", "data-x": a.x, "data-y": a.y,
       "data-facing": a.facing},
      [s("rect", {class: "army" + (a.routed ? " routed" : "") + (large ? " large" : ""),
        "data-legend": ["army", a.routed ? "routed" : "", large ? "large" : ""].join(" ").trim(),
        x: a.x * CELL + 2, y: a.y * CELL + 2,
        width: w * CELL - 4, height: d * CELL - 4, fill: sideColor(sides, a.side)}),
       s("path", {class: "facing", d: arrow}),
       s("text", {x: cx, y: cy - 4, class: "label", text: a.name || a.id})],
      `${a.id} (${a.side}): ${a.army_size} ${large ? a.size + " " : ""}soldiers, facing ${a.facing}` +
        (a.routed ? ", routed" : ""),
    ));
  }
}

// Tactical (seed 002): the map's terrain, structures (a wall power's among them, a
// destroyed one as rubble that no longer blocks), characters on their squares (an unseen
// foe has none).
// A square that is not open floor (seed 002 [Cover]; A47-A50 in RULINGS.md): a wall blocks movement and
// sight, an obstacle movement only, a screen sight only; cover and concealment on top.
function terrainKind(t) {
  if (t.blocks_move && t.blocks_sight) return "wall";
  if (t.blocks_move) return "obstacle";
  if (t.blocks_sight) return "screen";
  return "open";
}

function terrainSquare(t) {
  const kind = terrainKind(t), x = t.x * CELL, y = t.y * CELL;
  const shapes = [s("rect", {class: `terrain-fill ${kind}`, x, y, width: CELL, height: CELL})];
  if (t.concealment !== "none") {
    shapes.push(s("rect", {class: `concealment ${t.concealment}`, x: x + 1, y: y + 1,
      width: CELL - 2, height: CELL - 2}));
  }
  if (t.cover !== "none") {
    // a corner mark: outlined for cover, filled for superior cover
    shapes.push(s("path", {class: `cover-mark ${t.cover}`,
      d: `M${x + CELL - 3} ${y + 3}h-12l12 12Z`}));
  }
  const what = [kind === "open" ? "open floor" : kind];
  if (t.cover !== "none") what.push(t.cover === "superior" ? "superior cover" : "cover");
  if (t.concealment !== "none") what.push(`${t.concealment} concealment`);
  return s("g", {class: "terrain", "data-x": t.x, "data-y": t.y, "data-kind": kind,
    "data-cover": t.cover, "data-concealment": t.concealment},
  [...shapes, s("title", {text: `(${t.x}, ${t.y}): ${what.join(", ")}`})]);
}

// The map is the setup's (no event changes it): read once from the battle's first event,
// not carried in every view. A square leaves out its defaults there.
function mapSquare(t) {
  return {x: t.x, y: t.y, blocks_move: !!t.blocks_move, blocks_sight: !!t.blocks_sight,
    cover: t.cover || "none", concealment: t.concealment || "none"};
}

function tactical(svg, st, sides, setup) {
  frame(svg, st.width, st.height);
  for (const t of ((setup && setup.squares) || []).map(mapSquare)) {
    const plain = !t.blocks_move && !t.blocks_sight && t.cover === "none" && t.concealment === "none";
    if (!plain) svg.append(terrainSquare(t)); // listed, but open floor: nothing to draw
  }
  for (const t of st.structures) {
    const destroyed = t.sth <= 0;
    const title = `${t.name || t.id}${t.wall ? " (wall)" : ""}: ` +
      (destroyed ? "destroyed" : `STH ${t.sth}/${t.sth_max}`);
    for (const [x, y] of t.squares) {
      svg.append(s("rect", {
        class: "area structure" + (t.wall ? " wall" : "") + (destroyed ? " destroyed" : ""),
        "data-legend": (t.wall ? "power-wall" : "structure") + (destroyed ? " destroyed" : ""),
        "data-id": t.id, "data-x": x, "data-y": y, "data-wall": t.wall ? "true" : null,
        "data-destroyed": destroyed ? "true" : null, x: x * CELL, y: y * CELL,
        width: CELL, height: CELL,
      }, [s("title", {text: title})]));
    }
  }
  for (const c of st.characters) {
    if (c.x === undefined || c.y === undefined) continue;
    svg.append(unit(
      {"data-id": c.id, "data-side": c.side, "data-kind": "character", "data-x": c.x, "data-y": c.y},
      [s("circle", {class: "character" + (c.down ? " down" : ""), "data-legend": "character" + (c.down ? " down" : ""),
        cx: center(c.x), cy: center(c.y),
        r: CELL * 0.38, fill: sideColor(sides, c.side)}),
       label(c.x, c.y, (c.name || c.id).slice(0, 2))],
      `${c.name || c.id} (${c.side}): HEA ${c.HEA.cur}/${c.HEA.max}` + (c.dead ? ", dead" : c.down ? ", down" : ""),
    ));
  }
}

// Warfare (seed 003): reinforcement zones shaded in their side's colour, units on the field
// (a reserve has no tile yet; a shattered or destroyed unit has left it) with an arrow for
// their facing (8 directions), their health, and a badge when a champion has joined them.
const COMPASS = {N: [0, -1], NE: [1, -1], E: [1, 0], SE: [1, 1], S: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [-1, -1]};

// A small triangle on the edge of the unit's square, pointing where it faces (the label
// with its health stays readable in the middle).
function facingMark(cx, cy, fx, fy) {
  const n = Math.hypot(fx, fy), ux = fx / n, uy = fy / n;
  const tip = CELL * 0.5, base = CELL * 0.3, half = CELL * 0.13;
  const bx = cx + ux * base, by = cy + uy * base;
  return `M${cx + ux * tip} ${cy + uy * tip}L${bx - uy * half} ${by + ux * half}` +
    `L${bx + uy * half} ${by - ux * half}Z`;
}

// A unit's kind (seed 003 [Units]: melee, ranged, artillery) is its shape: a square, a
// circle, an octagon.
function warfareShape(u, fill) {
  const kind = ["melee", "ranged", "artillery"].includes(u.kind) ? u.kind : "melee";
  const x = u.x * CELL, y = u.y * CELL, m = 3, c = 10;
  const attrs = {class: `wunit ${kind}` + (u.diminished ? " diminished" : ""), fill,
    "data-legend": `wunit-${kind}` + (u.diminished ? " diminished" : "")};
  if (kind === "ranged") return s("circle", {...attrs, cx: center(u.x), cy: center(u.y), r: CELL / 2 - m});
  if (kind === "artillery") {
    const e = CELL - m;
    return s("path", {...attrs, d: `M${x + m + c} ${y + m}H${x + e - c}L${x + e} ${y + m + c}V${y + e - c}` +
      `L${x + e - c} ${y + e}H${x + m + c}L${x + m} ${y + e - c}V${y + m + c}Z`});
  }
  return s("rect", {...attrs, x: x + m, y: y + m, width: CELL - 2 * m, height: CELL - 2 * m});
}

function warfare(svg, st, sides) {
  frame(svg, st.width, st.height);
  for (const [side, zones] of Object.entries(st.zones || {})) {
    for (const z of zones) {
      for (const [x, y] of z.tiles) {
        svg.append(s("rect", {class: "area zone", "data-id": z.id, "data-side": side, x: x * CELL,
          y: y * CELL, width: CELL, height: CELL, fill: sideColor(sides, side)},
          [s("title", {text: `reinforcement zone ${z.id} (${side})`})]));
      }
    }
  }
  const champions = Object.fromEntries((st.champions || []).map((c) => [c.id, c]));
  for (const u of st.units) {
    if (u.status !== "field") continue;
    const [fx, fy] = COMPASS[u.facing] || [0, -1];
    const cx = center(u.x), cy = center(u.y);
    const shapes = [
      warfareShape(u, sideColor(sides, u.side)),
      s("path", {class: "facing-mark", d: facingMark(cx, cy, fx, fy)}),
      label(u.x, u.y, String(u.health)),
    ];
    const champion = u.joined_by ? champions[u.joined_by] : null;
    if (u.joined_by) {
      shapes.push(s("circle", {class: "hero-badge", "data-legend": "champion", cx: (u.x + 1) * CELL - 6,
        cy: u.y * CELL + 6, r: 4}));
    }
    svg.append(unit(
      {"data-id": u.id, "data-side": u.side, "data-kind": "unit", "data-unit-kind": u.kind, "data-x": u.x, "data-y": u.y,
       "data-facing": u.facing, "data-health": u.health, "data-champion": u.joined_by},
      shapes,
      `${u.name || u.id} (${u.side}, ${u.kind}): health ${u.health}/${u.max_health}, facing ${u.facing}` +
        (u.conditions.length ? `, ${u.conditions.join(", ")}` : "") +
        (u.joined_by ? `, joined by ${(champion && champion.name) || u.joined_by}` : ""),
    ));
  }
}

// Phased (seed 004): the combatants the setup (or the referee) placed; one without x, y is
// on no square and is not drawn. A map with no size is drawn as large as its combatants need.
function phased(svg, st, sides) {
  const placed = st.combatants.filter((c) => c.x !== null && c.x !== undefined && c.y !== null && c.y !== undefined);
  const width = st.width || Math.max(1, ...placed.map((c) => c.x + 1));
  const height = st.height || Math.max(1, ...placed.map((c) => c.y + 1));
  frame(svg, width, height);
  const acting = st.now && st.now.combatant;
  for (const c of placed) {
    const down = c.hp !== null && c.hp !== undefined && c.hp <= 0;
    svg.append(unit(
      {"data-id": c.id, "data-side": c.side, "data-kind": "combatant", "data-x": c.x, "data-y": c.y,
       "data-acting": c.id === acting ? "true" : null},
      [s("circle", {class: "character" + (down ? " down" : "") + (c.id === acting ? " acting" : ""),
        "data-legend": "combatant" + (down ? " down" : "") + (c.id === acting ? " acting" : ""),
        cx: center(c.x), cy: center(c.y), r: CELL * 0.38, fill: sideColor(sides, c.side)}),
       label(c.x, c.y, (c.name || c.id).slice(0, 2))],
      `${c.name || c.id} (${c.side})` + (c.hp === null || c.hp === undefined ? "" : `: ${c.hp} hp`) +
        (down ? ", down" : "") + (c.id === acting ? ", acts now" : ""),
    ));
  }
}

const DRAW = {quickstart, skirmish, tactical, warfare, phased};

/** Draw `view.state` (a BattleView's state) on `svg`, with the battle's `setup` (its first
 * event's) for what no event changes; false when the ruleset has no grid. */
export function renderGrid(svg, ruleset, state, sides, setup) {
  const draw = DRAW[ruleset];
  // A phased battle may have no map size: it has a grid when a combatant has a square.
  const sized = state.width !== undefined && state.width !== null;
  const placed = ruleset === "phased" && state.combatants.some((c) => c.x !== null && c.x !== undefined);
  if (!draw || !(sized || placed)) {
    clear(svg);
    return false;
  }
  draw(svg, state, sides, setup);
  return true;
}

/** The sides a state names, in the battle's order. */
export function sidesOf(ruleset, state) {
  if (ruleset === "skirmish") return state.forces.map((f) => f.id);
  if (ruleset === "tactical" || ruleset === "phased") return state.sides.map((x) => x.id);
  return state.sides || [];
}
