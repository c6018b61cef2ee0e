// Where each tile of the line of play lies: a line-for-line mirror of amigos/engine/line_layout.py.
//
// The Python module is the reference (the replay portal and the Academy draw from it, and its
// docstring explains the shape); tests run this file in Chromium on thousands of lines and compare
// its output with the Python one, number for number. Change both together.
//
// Coordinates are in units (a tile is 1 by 2); `box` is the view box, `aspect` times as wide as
// tall, so the drawing scales to the felt instead of growing the page.

const UP = [0, -1];
const DOWN = [0, 1];
const LEFT = [-1, 0];
const RIGHT = [1, 0];

export const MIN_BOX_WIDTH = 14;
export const MIN_BOX_HEIGHT = 9;
const PADDING = 0.5;
export const MIN_GAP = 0.5;
const CANDIDATE_WIDTHS = [];
for (let w = 8; w < 62; w += 2) CANDIDATE_WIDTHS.push(w);
CANDIDATE_WIDTHS.push(0);
const NEAR = 2.5;
const EPS = 1e-9;

function rect(cx, cy, horizontal, first, second) {
  const w = horizontal ? 2 : 1;
  const h = horizontal ? 1 : 2;
  return { x: cx - w / 2, y: cy - h / 2, w, h, horizontal, first, second };
}

function along(cx, cy, d, inner, outer) {
  const forward = d[0] + d[1] > 0;
  return rect(cx, cy, d[0] !== 0, forward ? inner : outer, forward ? outer : inner);
}

function across(cx, cy, d, value) {
  return rect(cx, cy, d[0] === 0, value, value);
}

function room(px, py, d, limit) {
  const position = d[0] !== 0 ? px : py;
  return (limit - position) * (d[0] + d[1]);
}

function same(a, b) {
  return a[0] === b[0] && a[1] === b[1];
}

function opposite(d) {
  return [-d[0], -d[1]];
}

function walk(placements, start, fold, first, halfAcross) {
  const placed = [];
  let [px, py] = start;
  let d = first;
  let half = halfAcross;
  let run = first;
  let phase = "run";
  for (const placement of placements) {
    const inner = Number(placement.inner);
    const outer = Number(placement.outer);
    const double = inner === outer;
    const length = double ? 1 : 2;
    if (phase === "run" && fold !== null) {
      const limit = same(d, fold.first) ? fold.far : fold.near;
      if (room(px, py, d, limit) < length - EPS) phase = "first corner";
    }
    if (phase === "run" || phase === "between") {
      const cx = px + (d[0] * length) / 2;
      const cy = py + (d[1] * length) / 2;
      placed.push(double ? across(cx, cy, d, inner) : along(cx, cy, d, inner, outer));
      px += d[0] * length;
      py += d[1] * length;
      half = double ? 1 : 0.5;
      if (phase === "between") phase = "corner";
      continue;
    }
    const turnTo = phase === "first corner" ? fold.sweep : opposite(run);
    const shift = half === 1 ? 1 : 0.5;
    const cx = px + d[0] * 0.5 + turnTo[0] * shift;
    const cy = py + d[1] * 0.5 + turnTo[1] * shift;
    placed.push(along(cx, cy, turnTo, inner, outer));
    px = cx + turnTo[0];
    py = cy + turnTo[1];
    d = turnTo;
    half = 0.5;
    if (phase === "first corner") phase = "between";
    else {
      run = turnTo;
      phase = "run";
    }
  }
  return placed;
}

function leadRect(kind, lead) {
  const inner = Number(lead.inner);
  const outer = Number(lead.outer);
  if (kind === "spinner") return inner === outer ? across(0, 0, RIGHT, inner) : along(0, 0, RIGHT, inner, outer);
  return inner === outer ? across(0, 0, UP, inner) : along(0, 0, UP, outer, inner);
}

function byArm(placements) {
  const arms = {};
  for (const placement of placements.slice(1)) (arms[String(placement.arm)] ||= []).push(placement);
  return arms;
}

function spinnerIndex(line) {
  const index = line.placements.findIndex((p) => p.tile === line.spinner);
  return index < 0 ? null : index;
}

function fold(first, sweep, far, near) {
  return { first, sweep, far, near };
}

function attempt(line, width, height) {
  const placements = line.placements;
  const kind = line.kind;
  const lead = leadRect(kind, placements[0]);
  const arms = byArm(placements);
  const turns = width > 0;
  const out = { lead: [lead] };
  if (kind !== "spinner") {
    const half = lead.w / 2;
    out.up = walk(arms.up || [], [0, lead.y], turns ? fold(UP, LEFT, -height / 2, height / 2) : null, UP, half);
    out.down = walk(arms.down || [], [0, lead.y + lead.h], turns ? fold(DOWN, RIGHT, height / 2, -height / 2) : null, DOWN, half);
    return out;
  }
  const half = lead.h / 2;
  const sides = (sx) => [
    walk(arms.left || [], [lead.x, 0], turns ? fold(LEFT, UP, -width / 2, sx - NEAR) : null, LEFT, half),
    walk(arms.right || [], [lead.x + lead.w, 0], turns ? fold(RIGHT, DOWN, width / 2, sx + NEAR) : null, RIGHT, half),
  ];
  const spinnerRect = (left, right) => {
    const index = spinnerIndex(line);
    if (index === null) return null;
    if (index === 0) return lead;
    const arm = String(placements[index].arm);
    const position = placements.slice(1, index).filter((p) => p.arm === arm).length;
    return (arm === "left" ? left : right)[position];
  };
  let [left, right] = sides(0);
  let spinner = spinnerRect(left, right);
  if (spinner !== null && spinner.x + spinner.w / 2 !== 0) {
    [left, right] = sides(spinner.x + spinner.w / 2);
    spinner = spinnerRect(left, right);
  }
  out.left = left;
  out.right = right;
  const hasUpDown = (arms.up || []).length > 0 || (arms.down || []).length > 0;
  if (spinner === null) {
    if (hasUpDown) throw new Error("bad_line");
    return out;
  }
  if (hasUpDown && (spinner.y + spinner.h / 2 !== 0 || spinner.horizontal)) return null;
  const sx = spinner.x + spinner.w / 2;
  out.up = walk(arms.up || [], [sx, spinner.y], turns ? fold(UP, RIGHT, -height / 2, -NEAR) : null, UP, spinner.w / 2);
  out.down = walk(arms.down || [], [sx, spinner.y + spinner.h], turns ? fold(DOWN, LEFT, height / 2, NEAR) : null, DOWN, spinner.w / 2);
  return out;
}

function assemble(line, arms) {
  const placements = line.placements;
  const spinner = spinnerIndex(line);
  const seen = {};
  const last = {};
  const out = [];
  placements.forEach((placement, index) => {
    if (index === 0) {
      out.push([arms.lead[0], null]);
      return;
    }
    const arm = String(placement.arm);
    const position = seen[arm] || 0;
    seen[arm] = position + 1;
    const start = line.kind === "spinner" && (arm === "up" || arm === "down") ? spinner : 0;
    out.push([arms[arm][position], arm in last ? last[arm] : start]);
    last[arm] = index;
  });
  return out;
}

function gap(a, b) {
  return Math.max(a.x - (b.x + b.w), b.x - (a.x + a.w), a.y - (b.y + b.h), b.y - (a.y + a.h));
}

function clear(laid) {
  for (let i = 0; i < laid.length; i += 1) {
    const [r, before] = laid[i];
    for (let j = 0; j < i; j += 1) {
      const [other, otherBefore] = laid[j];
      const linked = before === j || otherBefore === i;
      if (gap(r, other) < (linked ? -EPS : MIN_GAP - EPS)) return false;
    }
  }
  return true;
}

function frame(rects, aspect) {
  const left = Math.min(...rects.map((r) => r.x)) - PADDING;
  const top = Math.min(...rects.map((r) => r.y)) - PADDING;
  const right = Math.max(...rects.map((r) => r.x + r.w)) + PADDING;
  const bottom = Math.max(...rects.map((r) => r.y + r.h)) + PADDING;
  let width = Math.max(right - left, MIN_BOX_WIDTH);
  let height = Math.max(bottom - top, MIN_BOX_HEIGHT);
  if (width / height < aspect) width = height * aspect;
  else height = width / aspect;
  const cx = (left + right) / 2;
  const cy = (top + bottom) / 2;
  return [cx - width / 2, cy - height / 2, width, height];
}

// Python's round(x, 6) for the sort key (half to even does not matter at this precision here).
function round6(value) {
  return Math.round(value * 1e6) / 1e6;
}

// The tiles of `line` (the engine's Line.to_dict()) and a view box `aspect` times as wide as tall.
export function layout(line, aspect = 1.6) {
  const placements = (line && line.placements) || [];
  if (placements.length === 0) {
    return { box: [-MIN_BOX_WIDTH / 2, -MIN_BOX_HEIGHT / 2, MIN_BOX_WIDTH, MIN_BOX_HEIGHT], tiles: [] };
  }
  const framed = [];
  for (const width of CANDIDATE_WIDTHS) {
    const arms = attempt(line, width, width / aspect);
    if (arms === null) continue;
    const laid = assemble(line, arms);
    framed.push([frame(laid.map(([r]) => r), aspect), -(width || 1e9), laid]);
  }
  framed.sort((a, b) => round6(a[0][3]) - round6(b[0][3]) || a[1] - b[1]);
  const chosen = framed.find(([, , laid]) => clear(laid));
  if (!chosen) throw new Error("the line of play cannot be laid out");
  const [box, , laid] = chosen;
  const tiles = laid.map(([r], index) => ({
    tile: String(placements[index].tile),
    arm: placements[index].arm,
    index,
    last: index === placements.length - 1,
    x: r.x,
    y: r.y,
    w: r.w,
    h: r.h,
    horizontal: r.horizontal,
    first: r.first,
    second: r.second,
  }));
  return { box, tiles };
}
