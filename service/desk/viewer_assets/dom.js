// Building DOM and SVG nodes. Text always goes in as text (never as HTML): event data
// carries what players typed (rulings, reasons, names).

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = String(v);
    else if (k.startsWith("data-")) node.setAttribute(k, String(v));
    else node.setAttribute(k, String(v));
  }
  for (const c of children || []) {
    if (c === null || c === undefined) continue;
    node.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return node;
}

/** An HTML element: h("li", {class: "x", text: "y"}, [children]). */
export function h(tag, attrs, children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same call as h. */
export function s(tag, attrs, children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

// Side colours by the side's index in the battle (colour-blind friendly, Okabe-Ito).
const PALETTE = ["#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000"];

export function sideColor(sides, side) {
  const i = sides.indexOf(side);
  return PALETTE[(i < 0 ? sides.length : i) % PALETTE.length];
}
