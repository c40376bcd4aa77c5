// The legend under the grid, generated from what was drawn (issue 36: a trapped hero was an
// unexplained orange square): every shape on the grid stands for the keys in its
// data-legend (else its class), and each key drawn gets an entry with a sample of the mark
// itself; each side whose colour is drawn gets its swatch. A key with no words here is
// still listed, by its name, and marked data-known="false" (the browser test refuses it).

import {clear, h, s, sideColor} from "./dom.js";

// Keys -> what they mean. Keys with the same words share one entry.
const WORDS = {
  // quickstart (seed 001)
  "squad-soldier": "circle So: soldier squad (then its level)",
  "squad-skirmisher": "hexagon Sk: skirmisher squad",
  "squad-paladin": "square Pa: paladin squad",
  "squad-caster": "pentagon Ca: caster squad",
  "squad-medic": "octagon Me: medic squad",
  "squad": "circle: squad of another kind (its first letters)",
  "hidden": "dashed, faded: hidden from the enemy",
  "large": "outer ring (squad) or thick border (army): large",
  "undead": "dark tombstone: undead",
  "wound": "red dots: wounds",
  "hero-badge": "yellow dot: hero attached",
  "hero": "small square H: trapped hero",
  "engine": "diamond E: siege engine (level)",
  "barrier": "bar B: barrier (level)",
  "area circle": "dashed ring: magic circle",
  "area watchtower": "triangle: watchtower",
  // skirmish (seed 000)
  "army": "box: army footprint (its name)",
  "facing": "arrow: facing",
  "routed": "faded: routed",
  "area zone-band ranged": "shaded band: ranged zone",
  "area zone-band camp": "paler band: camp zone",
  "area zone-band command": "dashed band: command zone (rows only)",
  "melee-edge": "line: a side's edge of the melee zone",
  // tactical (seed 002)
  "character": "circle: character (first letters of its name)",
  "down": "faded: down",
  "terrain-fill wall": "dark square: wall (blocks movement and sight)",
  "terrain-fill obstacle": "brown square: obstacle (blocks movement)",
  "terrain-fill screen": "dashed square: blocks sight only",
  "terrain-fill open": "open floor with cover or concealment",
  "cover-mark cover": "corner mark: cover (filled: superior)",
  "cover-mark superior": "corner mark: cover (filled: superior)",
  "concealment partial": "shaded: concealment (darker: total)",
  "concealment total": "shaded: concealment (darker: total)",
  "structure": "grey square: structure",
  "power-wall": "purple square: a power's wall",
  "destroyed": "dashed grey: destroyed structure",
  // warfare (seed 003)
  "wunit-melee": "square: melee unit (its health)",
  "wunit-ranged": "circle: ranged unit (its health)",
  "wunit-artillery": "octagon: artillery unit (its health)",
  "facing-mark": "triangle: facing",
  "diminished": "faded: diminished",
  "champion": "yellow dot: champion joined",
  "area zone": "shaded square: reinforcement zone",
  // phased (seed 004)
  "combatant": "circle: combatant (first letters of its name)",
  "acting": "thick ring: acts now",
};

// Drawn but standing for nothing of the battle: the board, its lines, the labels in marks.
const PLAIN = new Set(["board", "gridlines", "label", "unit", "terrain"]);

/** The legend keys of one drawn element ([] for the board, labels and groups). */
export function keysOf(el) {
  if (el.dataset.legend) return el.dataset.legend.split(" ").filter(Boolean);
  const cls = el.getAttribute("class");
  if (!cls || PLAIN.has(cls) || el.tagName === "g" || el.tagName === "title") return [];
  return [cls];
}

function sample(el) {
  const box = el.getBBox();
  const w = Math.min(Math.max(box.width, 8), 40), hgt = Math.min(Math.max(box.height, 8), 40);
  const copy = el.cloneNode(true);
  copy.removeAttribute("data-legend");
  for (const t of copy.querySelectorAll("title")) t.remove(); // the entry's words say it
  return s("svg", {class: "sample", viewBox: `${box.x - 2} ${box.y - 2} ${w + 4} ${hgt + 4}`,
    "aria-hidden": "true"}, [copy]);
}

/** Fill `list` (the #legend <ul>) with an entry for each side colour and mark in `svg`. */
export function renderLegend(list, svg, sides, drawn) {
  clear(list);
  if (!drawn) return;
  const sidesDrawn = new Set([...svg.querySelectorAll("[data-side]")].map((e) => e.dataset.side));
  for (const side of sides.filter((x) => sidesDrawn.has(x))) {
    const swatch = h("span", {class: "swatch"});
    swatch.style.background = sideColor(sides, side); // CSSOM: no inline style attribute
    list.append(h("li", {class: "side-key", "data-side": side}, [swatch, side]));
  }
  const entries = new Map(); // words -> {keys, element}
  for (const el of svg.querySelectorAll("*")) {
    for (const key of keysOf(el)) {
      const words = WORDS[key] || key;
      const entry = entries.get(words) || {keys: new Set(), el, known: key in WORDS};
      entry.keys.add(key);
      entries.set(words, entry);
    }
  }
  for (const [words, entry] of entries) {
    list.append(h("li", {class: "mark-key", "data-keys": [...entry.keys].join("|"),
      "data-known": entry.known ? "true" : "false"}, [sample(entry.el), words]));
  }
}
