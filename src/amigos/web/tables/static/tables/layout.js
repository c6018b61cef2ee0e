// Where each tile of the line of play goes on the screen: a pure function of the line and the box.
//
// The input is the engine's Line.to_dict() ({kind, placements: [{tile, arm, inner, outer}], ...}).
// Nothing here touches the page, so the geometry can be checked on its own (tests render lines of
// every shape and assert that no two tiles overlap and every tile stays inside the box).
//
// The shapes follow the rules our players know:
// * Two-ended lines (Amigos, Cuban) run up and down from the lead. A mixed lead stands upright with
//   its Up value on top; a double lead lies across, and the second tile goes above it. When an arm
//   reaches the edge it turns: the Up arm to the left (Arriba/Izquierda), the Down arm to the right
//   (Abajo/Derecha), and on again (down, then right; up, then left) if the line is very long.
// * Spinner lines (draw and fives games) run left and right from the lead; the spinner (first
//   double) opens its up and down arms. Each arm turns a quarter clockwise at the edge, so the four
//   arms wind like a pinwheel and never cross one another.
// * Doubles lie across the line, except on the corner where the line turns (no room there).
// The tile size is the largest that keeps the whole line inside the box; if even the smallest
// legible size does not fit, the box grows taller (the board then scrolls).

const UP = [0, -1];
const DOWN = [0, 1];
const LEFT = [-1, 0];
const RIGHT = [1, 0];

//: Turns of each arm after its first stretch.
const TWO_ENDED_PATHS = { up: [UP, LEFT, DOWN, RIGHT], down: [DOWN, RIGHT, UP, LEFT] };
const SPINNER_PATHS = {
  left: [LEFT, UP, RIGHT, DOWN],
  right: [RIGHT, DOWN, LEFT, UP],
  up: [UP, RIGHT, DOWN, LEFT],
  down: [DOWN, LEFT, UP, RIGHT],
};

export const MAX_UNIT = 26;
export const MIN_UNIT = 12;
const EPSILON = 1e-6;

export function parseTile(text) {
  const [a, b] = String(text).split("-").map(Number);
  return { a, b, double: a === b };
}

function rectOf(cx, cy, w, h) {
  return { x: cx - w / 2, y: cy - h / 2, w, h };
}

// A tile whose long side follows `dir`: `inner` is the half at its back, `outer` at its front.
function along(cx, cy, dir, unit, inner, outer) {
  const horizontal = dir[0] !== 0;
  const rect = horizontal ? rectOf(cx, cy, 2 * unit, unit) : rectOf(cx, cy, unit, 2 * unit);
  const forward = dir[0] + dir[1] > 0; // right or down: the back half comes first on screen
  return { ...rect, horizontal, first: forward ? inner : outer, second: forward ? outer : inner };
}

// A double lying across `dir`.
function across(cx, cy, dir, unit, value) {
  const horizontal = dir[0] === 0;
  const rect = horizontal ? rectOf(cx, cy, 2 * unit, unit) : rectOf(cx, cy, unit, 2 * unit);
  return { ...rect, horizontal, first: value, second: value };
}

// How far `point` may still travel along `dir` before it meets `limit` (a rectangle).
function room(point, dir, limit) {
  if (dir === UP) return point[1] - limit.top;
  if (dir === DOWN) return limit.bottom - point[1];
  if (dir === LEFT) return point[0] - limit.left;
  return limit.right - point[0];
}

// Lays one arm's tiles from `start` (a point on the edge of the tile it grows from) along `path`.
// `halfAcross` is half the width of that tile across the direction of travel (for the corners).
function walkArm(placements, start, path, limits, unit, halfAcross) {
  const placed = [];
  let point = start.slice();
  let leg = 0;
  let dir = path[0];
  let half = halfAcross;
  for (const placement of placements) {
    const tile = parseTile(placement.tile);
    const length = tile.double ? unit : 2 * unit;
    if (room(point, dir, limits[leg]) >= length - EPSILON || leg === path.length - 1) {
      const cx = point[0] + (dir[0] * length) / 2;
      const cy = point[1] + (dir[1] * length) / 2;
      placed.push(
        tile.double ? across(cx, cy, dir, unit, placement.inner) : along(cx, cy, dir, unit, placement.inner, placement.outer),
      );
      point = [point[0] + dir[0] * length, point[1] + dir[1] * length];
      half = tile.double ? unit : unit / 2;
      continue;
    }
    // The corner: the tile lies along the new direction, its inner half level with the end of the
    // previous tile: flush with that tile's far side, or over one half of a double lying across.
    const next = path[leg + 1];
    const shift = half === unit ? unit : unit / 2;
    const cx = point[0] + (dir[0] * unit) / 2 + next[0] * shift;
    const cy = point[1] + (dir[1] * unit) / 2 + next[1] * shift;
    placed.push(along(cx, cy, next, unit, placement.inner, placement.outer));
    point = [cx + next[0] * unit, cy + next[1] * unit];
    dir = next;
    leg += 1;
    half = unit / 2;
  }
  return placed;
}

function overlaps(a, b) {
  return a.x < b.x + b.w - EPSILON && b.x < a.x + a.w - EPSILON && a.y < b.y + b.h - EPSILON && b.y < a.y + a.h - EPSILON;
}

function fits(tiles, width, height) {
  for (let i = 0; i < tiles.length; i += 1) {
    const t = tiles[i];
    if (t.x < -EPSILON || t.y < -EPSILON || t.x + t.w > width + EPSILON || t.y + t.h > height + EPSILON) return false;
    for (let j = 0; j < i; j += 1) if (overlaps(t, tiles[j])) return false;
  }
  return true;
}

// Where the arms may run before turning: the box's edges for the first two stretches; after that
// a stretch stops a tile short of the box's middle lines, on its own side of them, so that a long
// arm winds inwards instead of meeting another arm.
function limitsFor(width, height, margin, unit, centre) {
  const outer = { top: margin, bottom: height - margin, left: margin, right: width - margin };
  const inner = { top: centre[1] + unit, bottom: centre[1] - unit, left: centre[0] + unit, right: centre[0] - unit };
  return [outer, outer, inner, inner];
}

function attempt(line, width, height, unit) {
  const placements = line.placements || [];
  // A corner tile reaches one tile-width past the point where its arm turned, and a double lying
  // across the next stretch half a width more: the first stretches stop that far from the edge.
  const margin = 1.5 * unit;
  const centre = [width / 2, height / 2];
  const spinnerLine = line.kind === "spinner";
  const byArm = {};
  for (const placement of placements.slice(1)) (byArm[placement.arm] ||= []).push(placement);
  const limits = limitsFor(width, height, margin, unit, centre);
  const lead = placements[0];
  const leadTile = parseTile(lead.tile);
  const tiles = [];
  if (!spinnerLine) {
    // A mixed lead stands upright (Up value on top); a double lead lies across.
    const leadRect = leadTile.double ? across(centre[0], centre[1], UP, unit, lead.inner) : along(centre[0], centre[1], UP, unit, lead.outer, lead.inner);
    tiles.push(leadRect);
    const halfAcross = leadTile.double ? unit : unit / 2;
    const top = [centre[0], leadRect.y];
    const bottom = [centre[0], leadRect.y + leadRect.h];
    const up = walkArm(byArm.up || [], top, TWO_ENDED_PATHS.up, limits, unit, halfAcross);
    const down = walkArm(byArm.down || [], bottom, TWO_ENDED_PATHS.down, limits, unit, halfAcross);
    return assemble(placements, tiles, { up, down });
  }
  const leadRect = leadTile.double ? across(centre[0], centre[1], RIGHT, unit, lead.inner) : along(centre[0], centre[1], RIGHT, unit, lead.inner, lead.outer);
  tiles.push(leadRect);
  const halfAcross = leadTile.double ? unit : unit / 2;
  const left = walkArm(byArm.left || [], [leadRect.x, centre[1]], SPINNER_PATHS.left, limits, unit, halfAcross);
  const right = walkArm(byArm.right || [], [leadRect.x + leadRect.w, centre[1]], SPINNER_PATHS.right, limits, unit, halfAcross);
  const arms = { left, right, up: [], down: [] };
  if (line.spinner) {
    const spinnerIndex = placements.findIndex((p) => p.tile === line.spinner);
    const spinnerRect = spinnerIndex === 0 ? leadRect : placedRect(placements, spinnerIndex, { left, right });
    if (spinnerRect) {
      const sx = spinnerRect.x + spinnerRect.w / 2;
      const half = spinnerRect.horizontal ? unit / 2 : unit;
      arms.up = walkArm(byArm.up || [], [sx, spinnerRect.y], SPINNER_PATHS.up, limits, unit, half);
      arms.down = walkArm(byArm.down || [], [sx, spinnerRect.y + spinnerRect.h], SPINNER_PATHS.down, limits, unit, half);
    }
  }
  return assemble(placements, tiles, arms);
}

// The rectangle already computed for placements[index] (a tile of the left or right arm).
function placedRect(placements, index, arms) {
  const arm = placements[index].arm;
  const position = placements.slice(1, index).filter((p) => p.arm === arm).length;
  return (arms[arm] || [])[position] || null;
}

// Back into the order the tiles were laid, with what a drawing needs to know.
function assemble(placements, leadTiles, arms) {
  const seen = {};
  const out = [];
  placements.forEach((placement, index) => {
    let rect;
    if (index === 0) rect = leadTiles[0];
    else {
      const position = seen[placement.arm] || 0;
      seen[placement.arm] = position + 1;
      rect = arms[placement.arm][position];
    }
    out.push({ ...rect, tile: placement.tile, arm: placement.arm, index, last: index === placements.length - 1 });
  });
  return out;
}

// The layout of `line` in a box `width` wide. `height` defaults to a shape that suits the line's
// kind; the result's height may be larger when the line needs it.
export function layout(line, width, height) {
  const placements = (line && line.placements) || [];
  let boxHeight = height || Math.round(Math.max(280, Math.min(width * 0.75, 560)));
  if (placements.length === 0) return { width, height: boxHeight, unit: MAX_UNIT, tiles: [] };
  const largest = Math.max(MIN_UNIT, Math.min(MAX_UNIT, Math.floor(width / 12)));
  const tryUnit = (unit) => {
    const tiles = attempt(line, width, boxHeight, unit);
    return fits(tiles, width, boxHeight) ? { width, height: boxHeight, unit, tiles } : null;
  };
  // The largest size that fits, by bisection (a larger tile never makes room, so this is quick).
  let best = tryUnit(largest);
  if (best) return best;
  let low = MIN_UNIT - 1;
  let high = largest;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const found = tryUnit(middle);
    if (found) {
      best = found;
      low = middle;
    } else high = middle;
  }
  if (best) return best;
  // Even the smallest legible tiles need more room: the board grows taller.
  for (let grow = 0; grow < 100; grow += 1) {
    boxHeight += 2 * MIN_UNIT;
    best = tryUnit(MIN_UNIT);
    if (best) return best;
  }
  throw new Error("the line of play does not fit");
}
