// A rating's curve (the profile page, profile.js): every rated game of a
// pool, oldest first, as an inline SVG drawn at the width of its box, so
// that its words keep their size from a 320 px phone to a desktop. The
// scaling is a pure function (scale, unit-tested in web/unit); draw makes
// the elements.
import { s } from './dom.js';

// niceStep is the step of about `count` ticks over span: 1, 2 or 5 times
// a power of ten.
export function niceStep(span, count = 4) {
  if (!(span > 0)) return 1;
  const raw = span / Math.max(1, count);
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const k of [1, 2, 5, 10]) if (k * p >= raw) return k * p;
  return 10 * p;
}

// scale places points ({rating, rd?, at, room}) in a box of width x
// height: x by game (the first at the left edge of the plot, the last at
// its right; one game in the middle), y by rating, the axis from a tick
// under the lowest rating to one over the highest. It returns null for no
// points, else {plot: {x, y, w, h}, ticks: [{y, value}], dots: [{x, y,
// ...point}], path: the curve's "d", first, last: the points at the ends}.
export function scale(points, { width, height, left = 44, right = 12, top = 10, bottom = 26 } = {}) {
  const pts = (points || []).filter((p) => p && Number.isFinite(p.rating));
  if (!pts.length || !(width > 0) || !(height > 0)) return null;
  const plot = { x: left, y: top, w: Math.max(1, width - left - right), h: Math.max(1, height - top - bottom) };
  let lo = Math.min(...pts.map((p) => p.rating)), hi = Math.max(...pts.map((p) => p.rating));
  if (hi - lo < 20) { const mid = (hi + lo) / 2; lo = mid - 10; hi = mid + 10; }
  const step = niceStep(hi - lo);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  if (hi === lo) hi = lo + step;
  const y = (r) => plot.y + plot.h - ((r - lo) / (hi - lo)) * plot.h;
  const n = pts.length;
  const x = (i) => (n === 1 ? plot.x + plot.w / 2 : plot.x + (i / (n - 1)) * plot.w);
  const ticks = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push({ value: Math.round(v), y: round(y(v)) });
  const dots = pts.map((p, i) => ({ ...p, x: round(x(i)), y: round(y(p.rating)) }));
  const path = dots.map((d, i) => `${i ? 'L' : 'M'}${d.x} ${d.y}`).join('');
  return { plot, ticks, dots, path, first: pts[0], last: pts[n - 1], lo, hi };
}

const round = (v) => Math.round(v * 10) / 10;

// draw is the curve's <svg> at width x height: the rating ticks (labelled
// with fmt), the dates of the first and last game at the foot (dateOf),
// the line and a dot a game (its title: tip(point)). label names it for
// screen readers.
export function draw(points, { width, height, label, fmt = String, dateOf = () => '', tip = () => '' }) {
  const g = scale(points, { width, height });
  const svg = s('svg', { class: 'graph', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': label });
  if (!g) return svg;
  const { plot } = g;
  for (const tk of g.ticks) {
    svg.append(s('line', { class: 'graph-grid', x1: plot.x, x2: plot.x + plot.w, y1: tk.y, y2: tk.y }),
      s('text', { class: 'graph-tick', x: plot.x - 6, y: tk.y, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, fmt(tk.value)));
  }
  const foot = plot.y + plot.h + 18;
  const d0 = dateOf(g.first), d1 = dateOf(g.last);
  svg.append(s('text', { class: 'graph-date', x: plot.x, y: foot, 'text-anchor': 'start' }, d0));
  if (g.dots.length > 1 && d1 !== d0) svg.append(s('text', { class: 'graph-date', x: plot.x + plot.w, y: foot, 'text-anchor': 'end' }, d1));
  svg.append(s('path', { class: 'graph-line', d: g.path }));
  // Dots only while they stay apart (a long history is a line).
  const r = g.dots.length > plot.w / 6 ? 0 : 3;
  if (r) for (const d of g.dots) svg.append(s('circle', { class: 'graph-dot', cx: d.x, cy: d.y, r }, s('title', {}, tip(d))));
  return svg;
}
