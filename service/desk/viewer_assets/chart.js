// Each side's strength over the battle (GET /battles/{id}/timeline) as an SVG line chart,
// with a cursor at the selected version. One <polyline class="series"> per side; its
// data-values lists the values in version order (the browser test reads them back).
// Hidden is not dead (issue 36): a side's line is what the reader sees of it plus what it
// last saw of its units since gone out of sight (the timeline's `hidden`), and those
// stretches are drawn dashed (a <polyline class="hidden-stretch"> each).

import {clear, h, s, sideColor} from "./dom.js";

const W = 420, H = 180, PAD = {left: 36, right: 10, top: 10, bottom: 24};

export function renderChart(svg, list, timeline, selected) {
  clear(svg);
  clear(list);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const points = timeline.points;
  const sides = timeline.sides;
  if (!points.length) return;
  const first = points[0].version, last = points[points.length - 1].version;
  let top = 0;
  const known = (p, side) => (p.strength[side] || 0) + ((p.hidden || {})[side] || 0);
  for (const p of points) for (const side of sides) top = Math.max(top, known(p, side));
  top = top || 1;
  const x = (v) => PAD.left + (last === first ? 0 : ((v - first) / (last - first)) * (W - PAD.left - PAD.right));
  const y = (n) => H - PAD.bottom - (n / top) * (H - PAD.top - PAD.bottom);

  svg.append(s("path", {class: "axis", d: `M${PAD.left} ${PAD.top}V${H - PAD.bottom}H${W - PAD.right}`}));
  svg.append(s("text", {class: "tick", x: PAD.left - 4, y: y(top) + 4, "text-anchor": "end", text: fmt(top)}));
  svg.append(s("text", {class: "tick", x: PAD.left - 4, y: y(0), "text-anchor": "end", text: "0"}));
  svg.append(s("text", {class: "tick", x: x(first), y: H - 6, text: `v${first}`}));
  if (last !== first) {
    svg.append(s("text", {class: "tick", x: x(last), y: H - 6, "text-anchor": "end", text: `v${last}`}));
  }

  for (const side of sides) {
    const values = points.map((p) => known(p, side));
    const at = (i) => `${x(points[i].version).toFixed(1)},${y(values[i]).toFixed(1)}`;
    svg.append(s("polyline", {
      class: "series", "data-side": side, "data-values": values.join(","),
      points: points.map((p, i) => at(i)).join(" "), stroke: sideColor(sides, side),
    }));
    for (const [from, to] of hiddenStretches(points, side)) {
      const idx = [];
      for (let i = Math.max(0, from - 1); i <= to; i++) idx.push(i);
      svg.append(s("polyline", {class: "hidden-stretch", "data-side": side,
        "data-from": points[from].version, "data-to": points[to].version,
        points: idx.map(at).join(" ")}, [s("title", {text: `${side}: some units out of sight, counted as last seen`})]));
    }
  }
  const at = points.find((p) => p.version === selected);
  if (selected >= first && selected <= last) {
    svg.append(s("line", {class: "cursor", "data-version": selected, x1: x(selected), x2: x(selected),
      y1: PAD.top, y2: H - PAD.bottom}));
  }
  for (const side of sides) {
    const value = at ? at.strength[side] || 0 : null;
    const hidden = at ? (at.hidden || {})[side] || 0 : 0;
    list.append(h("li", {class: "strength-now", "data-side": side, "data-value": value,
      "data-hidden": hidden || null}, [
      h("span", {class: "swatch", style: null, "data-color": sideColor(sides, side)}),
      `${side}: ${value === null ? "—" : fmt(value)}`,
      hidden ? h("span", {class: "hidden-note", text: ` (+${fmt(hidden)} out of sight, as last seen)`}) : null,
    ]));
  }
  // CSP forbids inline style attributes: colour the swatches through the CSSOM.
  for (const sw of list.querySelectorAll(".swatch")) sw.style.background = sw.dataset.color;
}

function fmt(n) {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

// The runs of points (first and last index) where `side` has units out of sight.
function hiddenStretches(points, side) {
  const runs = [];
  let start = null;
  points.forEach((p, i) => {
    const out = ((p.hidden || {})[side] || 0) > 0;
    if (out && start === null) start = i;
    if (!out && start !== null) { runs.push([start, i - 1]); start = null; }
  });
  if (start !== null) runs.push([start, points.length - 1]);
  return runs;
}
