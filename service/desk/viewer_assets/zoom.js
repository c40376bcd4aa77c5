// Zoom and pan for the grid (issue 36: a 40 x 120 skirmish map was a 200-pixel column):
// the <svg> fills its panel and its viewBox is the part of the map shown, so every mark
// scales with the zoom. Wheel or pinch to zoom about the pointer, drag to pan, the
// buttons, or the keyboard on the focused grid (+ and - zoom, arrows pan, 0 fits, 1 shows
// the whole map). "Fit" is the default: the whole map when it fills the panel at least
// half in both directions, else (a long, thin map) the map's width across the panel,
// centred on the units drawn, so they stay readable; pan to see the rest.

const MAX_PX_PER_UNIT = 4; // 144 px a square
const PAN_STEP = 0.15; // of the panel, an arrow key
const ZOOM_STEP = 1.25;

export class Zoom {
  constructor(svg) {
    this.svg = svg;
    this.map = null; // {w, h} in viewBox units
    this.view = null; // {cx, cy, k}: the centre shown, in viewBox units, and px per unit
    this.pointers = new Map();
    this.listen();
  }

  // The panel's size in px.
  size() {
    const r = this.svg.getBoundingClientRect();
    return {W: Math.max(1, r.width), H: Math.max(1, r.height)};
  }

  /** After each drawing: keep the view if the map is the same size, else fit. */
  drawn() {
    const w = Number(this.svg.dataset.mapWidth) * 36, h = Number(this.svg.dataset.mapHeight) * 36;
    if (!w || !h) return;
    const same = this.map && this.map.w === w && this.map.h === h;
    this.map = {w, h};
    this.sizePanel();
    if (same && this.view) this.apply();
    else this.fit();
  }

  // The panel is as wide as its column and as high as the map at that width needs, at most
  // 75% of the window (and at least 240 px).
  sizePanel() {
    const width = this.svg.parentElement.clientWidth || this.svg.getBoundingClientRect().width;
    const want = (width * this.map.h) / this.map.w;
    const height = Math.round(Math.max(240, Math.min(want, window.innerHeight * 0.75)));
    this.svg.style.height = `${height}px`; // CSSOM: the CSP forbids style attributes only
  }

  whole() {
    const {W, H} = this.size();
    this.view = {cx: this.map.w / 2, cy: this.map.h / 2, k: Math.min(W / this.map.w, H / this.map.h)};
    this.svg.dataset.zoom = "whole";
    this.apply();
  }

  fit() {
    const {W, H} = this.size();
    const meet = Math.min(W / this.map.w, H / this.map.h);
    if (this.map.w * meet >= W / 2 && this.map.h * meet >= H / 2) {
      this.whole();
      this.svg.dataset.zoom = "fit";
      return;
    }
    const k = Math.max(W / this.map.w, H / this.map.h);
    const c = this.unitsCentre();
    this.view = {cx: c.x, cy: c.y, k};
    this.svg.dataset.zoom = "fit";
    this.apply();
  }

  // The middle of the units drawn (the map's when there are none).
  unitsCentre() {
    const boxes = [...this.svg.querySelectorAll("g.unit")].map((g) => g.getBBox());
    if (!boxes.length) return {x: this.map.w / 2, y: this.map.h / 2};
    const x0 = Math.min(...boxes.map((b) => b.x)), x1 = Math.max(...boxes.map((b) => b.x + b.width));
    const y0 = Math.min(...boxes.map((b) => b.y)), y1 = Math.max(...boxes.map((b) => b.y + b.height));
    return {x: (x0 + x1) / 2, y: (y0 + y1) / 2};
  }

  // Keep some of the map in view and the zoom within bounds, then set the viewBox.
  apply() {
    const {W, H} = this.size();
    const v = this.view;
    const least = Math.min(W / this.map.w, H / this.map.h) / 2;
    v.k = Math.min(MAX_PX_PER_UNIT, Math.max(least, v.k));
    const halfW = W / v.k / 2, halfH = H / v.k / 2;
    v.cx = clampCentre(v.cx, halfW, this.map.w);
    v.cy = clampCentre(v.cy, halfH, this.map.h);
    this.svg.setAttribute("viewBox",
      `${(v.cx - halfW).toFixed(2)} ${(v.cy - halfH).toFixed(2)} ${(2 * halfW).toFixed(2)} ${(2 * halfH).toFixed(2)}`);
    this.svg.dataset.scale = v.k.toFixed(4);
  }

  /** Zoom by `factor` keeping the map point under (px, py) (panel px) where it is. */
  zoomBy(factor, px, py) {
    if (!this.view) return;
    const {W, H} = this.size();
    const v = this.view;
    if (px === undefined) { px = W / 2; py = H / 2; }
    const mx = v.cx + (px - W / 2) / v.k, my = v.cy + (py - H / 2) / v.k;
    v.k *= factor;
    v.k = Math.min(MAX_PX_PER_UNIT, v.k);
    v.cx = mx - (px - W / 2) / v.k;
    v.cy = my - (py - H / 2) / v.k;
    this.svg.dataset.zoom = "user";
    this.apply();
  }

  /** Pan by (dx, dy) panel px: the map moves with the pointer. */
  panBy(dx, dy) {
    if (!this.view) return;
    this.view.cx -= dx / this.view.k;
    this.view.cy -= dy / this.view.k;
    this.svg.dataset.zoom = "user";
    this.apply();
  }

  listen() {
    const svg = this.svg;
    const local = (e) => {
      const r = svg.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    };
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const [x, y] = local(e);
      this.zoomBy(Math.exp(-e.deltaY / 300), x, y);
    }, {passive: false});
    svg.addEventListener("pointerdown", (e) => {
      svg.setPointerCapture(e.pointerId);
      this.pointers.set(e.pointerId, local(e));
    });
    svg.addEventListener("pointermove", (e) => {
      const was = this.pointers.get(e.pointerId);
      if (!was) return;
      const now = local(e);
      if (this.pointers.size === 1) this.panBy(now[0] - was[0], now[1] - was[1]);
      else if (this.pointers.size === 2) { // pinch: zoom by the change in spread, pan the middle
        const other = [...this.pointers.entries()].find(([id]) => id !== e.pointerId)[1];
        const before = Math.hypot(was[0] - other[0], was[1] - other[1]);
        const after = Math.hypot(now[0] - other[0], now[1] - other[1]);
        if (before > 0) this.zoomBy(after / before, (now[0] + other[0]) / 2, (now[1] + other[1]) / 2);
      }
      this.pointers.set(e.pointerId, now);
    });
    const up = (e) => this.pointers.delete(e.pointerId);
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    svg.addEventListener("keydown", (e) => {
      const {W, H} = this.size();
      const keys = {
        "+": () => this.zoomBy(ZOOM_STEP), "=": () => this.zoomBy(ZOOM_STEP),
        "-": () => this.zoomBy(1 / ZOOM_STEP), "0": () => this.fit(), "1": () => this.whole(),
        ArrowLeft: () => this.panBy(W * PAN_STEP, 0), ArrowRight: () => this.panBy(-W * PAN_STEP, 0),
        ArrowUp: () => this.panBy(0, H * PAN_STEP), ArrowDown: () => this.panBy(0, -H * PAN_STEP),
      };
      if (!keys[e.key]) return;
      e.preventDefault();
      keys[e.key]();
    });
    window.addEventListener("resize", () => {
      if (!this.map) return;
      this.sizePanel();
      if (this.view) this.apply();
    });
  }

  /** Wire the panel's buttons. */
  buttons({zoomIn, zoomOut, fit, whole}) {
    zoomIn.addEventListener("click", () => this.zoomBy(ZOOM_STEP));
    zoomOut.addEventListener("click", () => this.zoomBy(1 / ZOOM_STEP));
    fit.addEventListener("click", () => this.fit());
    whole.addEventListener("click", () => this.whole());
  }
}

// The centre along one axis: a view smaller than the map stays on the map; a larger one
// keeps the whole map in it.
function clampCentre(c, half, extent) {
  const lo = Math.min(half, extent - half), hi = Math.max(half, extent - half);
  return Math.max(lo, Math.min(hi, c));
}
