// Draws a laid-out line of play (see layout.js) as SVG tiles with pips.
// Only attributes are set (no style attributes), so the page's strict CSP holds; colours come from
// the stylesheet through class names.

const SVG = "http://www.w3.org/2000/svg";

// Pip positions on a 3×3 grid (column, row), for 0 to 9 (double-nine sets reach 9).
const PIPS = {
  0: [],
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  7: [[0, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [2, 2]],
  8: [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
  9: [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
};

function svgNode(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
  return node;
}

function pips(group, value, x, y, size) {
  const step = size / 4;
  const radius = Math.max(1.2, size * 0.09);
  for (const [column, row] of PIPS[value] || []) {
    group.append(svgNode("circle", { cx: x + step * (column + 1), cy: y + step * (row + 1), r: radius, class: "pip" }));
  }
}

// One tile (also used for the hands and the end-of-hand reveal): `first` is the left or top value.
export function tileGroup(x, y, unit, horizontal, first, second, extraClass) {
  const group = svgNode("g", { class: `domino${extraClass ? ` ${extraClass}` : ""}` });
  const w = horizontal ? 2 * unit : unit;
  const h = horizontal ? unit : 2 * unit;
  const inset = Math.max(0.5, unit * 0.03);
  group.append(
    svgNode("rect", { x: x + inset, y: y + inset, width: w - 2 * inset, height: h - 2 * inset, rx: unit * 0.14, class: "domino__face" }),
  );
  if (horizontal) {
    group.append(svgNode("line", { x1: x + unit, y1: y + unit * 0.15, x2: x + unit, y2: y + unit * 0.85, class: "domino__bar" }));
    pips(group, first, x, y, unit);
    pips(group, second, x + unit, y, unit);
  } else {
    group.append(svgNode("line", { x1: x + unit * 0.15, y1: y + unit, x2: x + unit * 0.85, y2: y + unit, class: "domino__bar" }));
    pips(group, first, x, y, unit);
    pips(group, second, x, y + unit, unit);
  }
  return group;
}

//: Pixels of the view box per layout unit (the drawing scales to the felt; this only sets the pips' detail).
const SCALE = 20;

// Replaces the content of `svg` with the tiles of `laid` (the result of layout(): units and a view
// box). The SVG has no fixed size: the stylesheet makes it fill the board, and the view box scales.
export function drawLine(svg, laid) {
  const [x, y, w, h] = laid.box.map((value) => value * SCALE);
  svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const nodes = laid.tiles.map((t) => {
    const group = tileGroup(t.x * SCALE, t.y * SCALE, SCALE, t.horizontal, t.first, t.second, t.last ? "domino--last" : "");
    group.dataset.tile = t.tile;
    group.dataset.index = String(t.index);
    if (t.arm) group.dataset.arm = t.arm;
    return group;
  });
  svg.replaceChildren(...nodes);
}
