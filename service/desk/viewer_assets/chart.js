// Each side's strength over the battle (GET /battles/{id}/timeline) as an SVG line chart,
// with a cursor at the selected version. One <polyline class="series"> per side; its
// data-values lists the values in version order (the browser test reads them back).

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
  for (const p of points) for (const side of sides) top = Math.max(top, p.strength[side] || 0);
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
    const values = points.map((p) => p.strength[side] || 0);
    svg.append(s("polyline", {
      class: "series", "data-side": side, "data-values": values.join(","),
      points: points.map((p, i) => `${x(p.version).toFixed(1)},${y(values[i]).toFixed(1)}`).join(" "),
      stroke: sideColor(sides, side),
    }));
  }
  const at = points.find((p) => p.version === selected);
  if (selected >= first && selected <= last) {
    svg.append(s("line", {class: "cursor", "data-version": selected, x1: x(selected), x2: x(selected),
      y1: PAD.top, y2: H - PAD.bottom}));
  }
  for (const side of sides) {
    const value = at ? at.strength[side] || 0 : null;
    list.append(h("li", {class: "strength-now", "data-side": side, "data-value": value}, [
      h("span", {class: "swatch", style: null, "data-color": sideColor(sides, side)}),
      `${side}: ${value === null ? "—" : fmt(value)}`,
    ]));
  }
  // CSP forbids inline style attributes: colour the swatches through the CSSOM.
  for (const sw of list.querySelectorAll(".swatch")) sw.style.background = sw.dataset.color;
}

function fmt(n) {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}
