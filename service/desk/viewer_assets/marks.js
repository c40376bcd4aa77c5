// The marks a unit is drawn with, one per kind, so that no two kinds look alike (issue 36:
// a soldier and a skirmisher were both an "S" in a circle). Every shape carries the
// legend keys it stands for in data-legend (legend.js lists one entry per key drawn).

import {s} from "./dom.js";

export const CELL = 36;

// A regular polygon of `n` corners, one pointing up, centred on (cx, cy).
function polygon(n, cx, cy, r) {
  const pts = [];
  for (let i = 0; i < n; i++) {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return s("polygon", {points: pts.join(" ")});
}

// Quickstart squad kinds (seed 001; SquadKind in domain/rulesets/quickstart/model.py):
// a shape and two letters each.
export const SQUAD_KINDS = {
  soldier: {corners: 0, letters: "So"},
  skirmisher: {corners: 6, letters: "Sk"},
  paladin: {corners: 4, letters: "Pa"},
  caster: {corners: 5, letters: "Ca"},
  medic: {corners: 8, letters: "Me"},
};

/** The shape of a squad of `kind` on square (x, y), filled in its side's colour. */
export function squadShape(kind, x, y, fill, extra) {
  const known = SQUAD_KINDS[kind];
  const cx = x * CELL + CELL / 2, cy = y * CELL + CELL / 2, r = CELL * 0.42;
  let shape;
  if (!known || known.corners === 0) shape = s("circle", {cx, cy, r: CELL * 0.4});
  else if (known.corners === 4) {
    shape = s("rect", {x: cx - r * 0.8, y: cy - r * 0.8, width: r * 1.6, height: r * 1.6, rx: 3});
  } else shape = polygon(known.corners, cx, cy, r);
  const keys = [known ? `squad-${kind}` : "squad", ...extra];
  shape.setAttribute("class", ["squad", kind, ...extra].join(" "));
  shape.setAttribute("fill", fill);
  shape.setAttribute("data-legend", keys.join(" "));
  return shape;
}

/** The letters a squad is labelled with: its kind's two, then its level. */
export function squadLetters(kind, level) {
  const known = SQUAD_KINDS[kind];
  return `${known ? known.letters : kind.slice(0, 2)}${level}`;
}

/** A ring around a large unit's mark (quickstart squads; skirmish armies of a size above
 * medium), drawn under it. */
export function largeRing(x, y) {
  return s("circle", {class: "large-ring", "data-legend": "large", cx: x * CELL + CELL / 2,
    cy: y * CELL + CELL / 2, r: CELL * 0.49});
}

/** A badge on the lower left corner of an undead unit's square. */
export function undeadBadge(x, y) {
  const cx = x * CELL + 7, cy = (y + 1) * CELL - 7;
  return s("path", {class: "undead-badge", "data-legend": "undead",
    d: `M${cx - 5} ${cy + 4}V${cy - 1}a5 5 0 0 1 10 0V${cy + 4}Z`});
}
