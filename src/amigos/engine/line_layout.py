"""Where each tile of the line of play lies on a drawing: one pure layout for every screen.

The table (mirrored line for line in ``web/tables/static/tables/layout.js``), the replay portal and
the Academy all draw the line from this geometry, so a player sees the same shape everywhere.

Coordinates are in *units*: a tile is 1 unit by 2. The layout is not fitted to a box of pixels;
it returns a view box (``box``) around the tiles with the shape (width / height) the caller asked
for, and the drawing scales that box to the screen. A longer line therefore makes the tiles smaller
instead of making the page taller.

The shape:

* Every arm runs straight to the edge of an imagined box before it turns. At the edge it makes a
  U-turn *outwards* (away from the rest of the line) and runs back, then turns outwards again: the
  arm folds like a snake into a band of its own, so no arm crosses or touches another.
* Two-ended lines (Amigos, Cuban) run up and down from the lead. A mixed lead stands upright with
  its Up value on top; a double lead lies across. The Up arm folds to the left (Arriba/Izquierda)
  and the Down arm to the right (Abajo/Derecha).
* Spinner lines (draw and fives games) run left and right from the lead; the spinner opens its up
  and down arms. Each arm owns a quarter of the felt (left folds up, up folds right, right folds
  down, down folds left, like a pinwheel) and its returning runs stop short of the spinner's row
  and column.
* Doubles lie across the line, except on a corner.

The size of the imagined box is chosen among a few candidates: the one whose folded line, framed
with the caller's shape, shows the largest tiles, provided no two tiles that are not laid against
each other come closer than half a unit. A straight line (no turns) always qualifies, so a layout
always exists.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Vector = tuple[int, int]

UP: Vector = (0, -1)
DOWN: Vector = (0, 1)
LEFT: Vector = (-1, 0)
RIGHT: Vector = (1, 0)

#: The smallest view box, in units (so that the first tiles are not drawn huge).
MIN_BOX_WIDTH = 14.0
MIN_BOX_HEIGHT = 9.0
#: Free space around the tiles inside the view box.
PADDING = 0.5
#: The least distance between two tiles that are not laid against each other.
MIN_GAP = 0.5
#: The widths (in units) of the imagined boxes tried; 0 stands for "no turns at all".
CANDIDATE_WIDTHS: tuple[int, ...] = (*range(8, 62, 2), 0)
#: Where the returning runs of a spinner line stop, from the spinner's row or column.
NEAR = 2.5
EPS = 1e-9


class LayoutError(ValueError):
    """The line given is not a line of play (code ``bad_line``)."""

    code = "bad_line"


@dataclass(frozen=True, slots=True)
class Rect:
    """A tile's place: top-left corner, size, and which value is drawn first (left or top)."""

    x: float
    y: float
    w: float
    h: float
    horizontal: bool
    first: int
    second: int


def _rect(cx: float, cy: float, horizontal: bool, first: int, second: int) -> Rect:
    w, h = (2.0, 1.0) if horizontal else (1.0, 2.0)
    return Rect(cx - w / 2, cy - h / 2, w, h, horizontal, first, second)


def _along(cx: float, cy: float, d: Vector, inner: int, outer: int) -> Rect:
    """A tile whose long side follows ``d``: ``inner`` at its back, ``outer`` at its front."""
    forward = d[0] + d[1] > 0  # right or down: the back half comes first on screen
    return _rect(cx, cy, d[0] != 0, inner if forward else outer, outer if forward else inner)


def _across(cx: float, cy: float, d: Vector, value: int) -> Rect:
    """A double lying across ``d``."""
    return _rect(cx, cy, d[0] == 0, value, value)


def _room(point: tuple[float, float], d: Vector, limit: float) -> float:
    """How far ``point`` may travel along ``d`` before it reaches the coordinate ``limit``."""
    axis = 0 if d[0] != 0 else 1
    return (limit - point[axis]) * (d[0] + d[1])


def _opposite(d: Vector) -> Vector:
    return (-d[0], -d[1])


@dataclass(frozen=True, slots=True)
class _Fold:
    """How one arm folds: its first direction, the side it folds to, and its two limits."""

    first: Vector
    sweep: Vector
    far: float  # the edge the runs along ``first`` stop at
    near: float  # where the returning runs stop


def _walk(
    placements: Sequence[Mapping[str, Any]],
    start: tuple[float, float],
    fold: _Fold | None,
    first: Vector,
    half_across: float,
) -> list[Rect]:
    """Lays one arm's tiles from ``start`` (a point on the edge of the tile it grows from).

    ``half_across`` is half the width, across the direction of travel, of the tile the arm grows
    from (a double lying across is wider), which decides where a corner tile goes. ``fold`` None:
    the arm never turns.
    """
    placed: list[Rect] = []
    px, py = start
    d = first
    half = half_across
    run = first  # the direction of the current (or last) straight run
    phase = "run"  # or "between" (after a U-turn's first corner) or "corner" (its second)
    for placement in placements:
        inner, outer = int(placement["inner"]), int(placement["outer"])
        double = inner == outer
        length = 1.0 if double else 2.0
        if phase == "run" and fold is not None:
            limit = fold.far if d == fold.first else fold.near
            if _room((px, py), d, limit) < length - EPS:
                phase = "first corner"
        if phase in ("run", "between"):
            cx, cy = px + d[0] * length / 2, py + d[1] * length / 2
            placed.append(_across(cx, cy, d, inner) if double else _along(cx, cy, d, inner, outer))
            px, py = px + d[0] * length, py + d[1] * length
            half = 1.0 if double else 0.5
            if phase == "between":
                phase = "corner"
            continue
        # A corner: the tile lies along the new direction, its inner half level with the end of the
        # previous tile (flush with that tile's side, or over one half of a double lying across).
        assert fold is not None
        turn_to = fold.sweep if phase == "first corner" else _opposite(run)
        shift = 1.0 if half == 1.0 else 0.5
        cx = px + d[0] * 0.5 + turn_to[0] * shift
        cy = py + d[1] * 0.5 + turn_to[1] * shift
        placed.append(_along(cx, cy, turn_to, inner, outer))
        px, py = cx + turn_to[0], cy + turn_to[1]
        d = turn_to
        half = 0.5
        if phase == "first corner":
            phase = "between"
        else:
            run = turn_to
            phase = "run"
    return placed


def _lead_rect(kind: str, lead: Mapping[str, Any]) -> Rect:
    inner, outer = int(lead["inner"]), int(lead["outer"])
    if kind == "spinner":
        # the lead's left value on the left; a double lead stands across the row
        return _across(0.0, 0.0, RIGHT, inner) if inner == outer else _along(0.0, 0.0, RIGHT, inner, outer)
    # a mixed lead stands upright with its Up value on top; a double lead lies across
    return _across(0.0, 0.0, UP, inner) if inner == outer else _along(0.0, 0.0, UP, outer, inner)


def _by_arm(placements: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    arms: dict[str, list[Mapping[str, Any]]] = {}
    for placement in placements[1:]:
        arms.setdefault(str(placement["arm"]), []).append(placement)
    return arms


def _spinner_index(line: Mapping[str, Any]) -> int | None:
    spinner = line.get("spinner")
    for index, placement in enumerate(line["placements"]):
        if placement["tile"] == spinner:
            return index
    return None


def _attempt(line: Mapping[str, Any], width: float, height: float) -> dict[str, list[Rect]] | None:
    """Every arm's tiles inside an imagined box ``width`` by ``height`` (0: no turns)."""
    placements = line["placements"]
    kind = line["kind"]
    lead = _lead_rect(kind, placements[0])
    arms = _by_arm(placements)
    turns = width > 0
    out: dict[str, list[Rect]] = {"lead": [lead]}
    if kind != "spinner":
        half = lead.w / 2
        up = _Fold(UP, LEFT, -height / 2, height / 2) if turns else None
        down = _Fold(DOWN, RIGHT, height / 2, -height / 2) if turns else None
        out["up"] = _walk(arms.get("up", []), (0.0, lead.y), up, UP, half)
        out["down"] = _walk(arms.get("down", []), (0.0, lead.y + lead.h), down, DOWN, half)
        return out
    half = lead.h / 2

    def sides(sx: float) -> tuple[list[Rect], list[Rect]]:
        left = _Fold(LEFT, UP, -width / 2, sx - NEAR) if turns else None
        right = _Fold(RIGHT, DOWN, width / 2, sx + NEAR) if turns else None
        return (
            _walk(arms.get("left", []), (lead.x, 0.0), left, LEFT, half),
            _walk(arms.get("right", []), (lead.x + lead.w, 0.0), right, RIGHT, half),
        )

    def spinner_rect(left: list[Rect], right: list[Rect]) -> Rect | None:
        index = _spinner_index(line)
        if index is None:
            return None
        if index == 0:
            return lead
        arm = str(placements[index]["arm"])
        position = sum(1 for p in placements[1:index] if p["arm"] == arm)
        return (left if arm == "left" else right)[position]

    left, right = sides(0.0)
    spinner = spinner_rect(left, right)
    if spinner is not None and spinner.x + spinner.w / 2 != 0.0:
        # the first runs do not depend on where the returning runs stop: the spinner stays put
        left, right = sides(spinner.x + spinner.w / 2)
        spinner = spinner_rect(left, right)
    out["left"], out["right"] = left, right
    if spinner is None:
        if arms.get("up") or arms.get("down"):
            raise LayoutError("tiles on the spinner's arms of a line without a spinner")
        return out
    if (arms.get("up") or arms.get("down")) and (spinner.y + spinner.h / 2 != 0.0 or spinner.horizontal):
        return None  # the spinner lies on a corner: this box does not suit the line
    sx = spinner.x + spinner.w / 2
    up = _Fold(UP, RIGHT, -height / 2, -NEAR) if turns else None
    down = _Fold(DOWN, LEFT, height / 2, NEAR) if turns else None
    out["up"] = _walk(arms.get("up", []), (sx, spinner.y), up, UP, spinner.w / 2)
    out["down"] = _walk(arms.get("down", []), (sx, spinner.y + spinner.h), down, DOWN, spinner.w / 2)
    return out


def _assemble(line: Mapping[str, Any], arms: Mapping[str, list[Rect]]) -> list[tuple[Rect, int | None]]:
    """The rectangles back in the order the tiles were laid, each with the index it was laid against."""
    placements = line["placements"]
    spinner = _spinner_index(line)
    seen: dict[str, int] = {}
    last: dict[str, int] = {}
    out: list[tuple[Rect, int | None]] = []
    for index, placement in enumerate(placements):
        if index == 0:
            out.append((arms["lead"][0], None))
            continue
        arm = str(placement["arm"])
        position = seen.get(arm, 0)
        seen[arm] = position + 1
        start = spinner if line["kind"] == "spinner" and arm in ("up", "down") else 0
        out.append((arms[arm][position], last.get(arm, start)))
        last[arm] = index
    return out


def _gap(a: Rect, b: Rect) -> float:
    """The distance between two rectangles along the axis that separates them most (<0: overlap)."""
    return max(a.x - (b.x + b.w), b.x - (a.x + a.w), a.y - (b.y + b.h), b.y - (a.y + a.h))


def _clear(laid: Sequence[tuple[Rect, int | None]]) -> bool:
    """No overlap, and half a unit between tiles that are not laid against each other."""
    for i, (rect, before) in enumerate(laid):
        for j in range(i):
            other, other_before = laid[j]
            linked = before == j or other_before == i
            if _gap(rect, other) < (-EPS if linked else MIN_GAP - EPS):
                return False
    return True


def _frame(rects: Sequence[Rect], aspect: float) -> tuple[float, float, float, float]:
    """The view box: the tiles with some padding, at least the smallest box, shaped to ``aspect``."""
    left = min(r.x for r in rects) - PADDING
    top = min(r.y for r in rects) - PADDING
    right = max(r.x + r.w for r in rects) + PADDING
    bottom = max(r.y + r.h for r in rects) + PADDING
    width = max(right - left, MIN_BOX_WIDTH)
    height = max(bottom - top, MIN_BOX_HEIGHT)
    if width / height < aspect:
        width = height * aspect
    else:
        height = width / aspect
    cx, cy = (left + right) / 2, (top + bottom) / 2
    return (cx - width / 2, cy - height / 2, width, height)


def _check(line: Mapping[str, Any]) -> None:
    if not isinstance(line, Mapping) or line.get("kind") not in ("two-ended", "spinner"):
        raise LayoutError("a line of play has a kind: two-ended or spinner")
    placements = line.get("placements")
    if not isinstance(placements, Sequence) or isinstance(placements, str):
        raise LayoutError("a line of play has a list of placements")
    arms = ("up", "down") if line["kind"] == "two-ended" else ("left", "right", "up", "down")
    for index, placement in enumerate(placements):
        if not isinstance(placement, Mapping):
            raise LayoutError("a placement is an object")
        if index > 0 and placement.get("arm") not in arms:
            raise LayoutError(f"placement {index} names no arm of this line")
        for half in ("inner", "outer"):
            if not isinstance(placement.get(half), int) or not 0 <= placement[half] <= 9:
                raise LayoutError(f"placement {index} has no {half} value")


def layout(line: Mapping[str, Any], aspect: float = 1.6) -> dict[str, Any]:
    """The tiles of ``line`` (as ``amigos.engine.codec.line_json`` writes it) and a view box ``aspect``
    times as wide as tall.

    Returns ``{"box": [x, y, width, height], "tiles": [...]}``; each tile has ``tile``, ``arm``,
    ``index``, ``last`` (the latest tile laid), ``x``, ``y``, ``w``, ``h``, ``horizontal`` and the
    values ``first`` (left or top) and ``second``. Raises :class:`LayoutError` on a malformed line.
    """
    _check(line)
    if not aspect > 0.1 or not aspect < 10:
        raise LayoutError("the view box's shape (width / height) lies between 0.1 and 10")
    placements = line["placements"]
    if not placements:
        return {"box": [-MIN_BOX_WIDTH / 2, -MIN_BOX_HEIGHT / 2, MIN_BOX_WIDTH, MIN_BOX_HEIGHT], "tiles": []}
    # Frame every candidate first (cheap), then check the clearance from the best one down: the
    # first clear one wins. Equal tiles: the wider imagined box (fewer turns) wins; 0 is the widest.
    framed: list[tuple[float, float, list[tuple[Rect, int | None]], tuple[float, float, float, float]]] = []
    for width in CANDIDATE_WIDTHS:
        arms = _attempt(line, float(width), width / aspect)
        if arms is None:
            continue
        laid = _assemble(line, arms)
        box = _frame([rect for rect, _ in laid], aspect)
        framed.append((box[3], -(width or 1e9), laid, box))
    framed.sort(key=lambda entry: (round(entry[0], 6), entry[1]))
    chosen = next(((laid, box) for _, _, laid, box in framed if _clear(laid)), None)
    if chosen is None:  # pragma: no cover - the straight line always qualifies
        raise LayoutError("the line of play cannot be laid out")
    laid, box = chosen
    tiles = [
        {
            "tile": str(placement["tile"]),
            "arm": placement["arm"],
            "index": index,
            "last": index == len(placements) - 1,
            "x": rect.x,
            "y": rect.y,
            "w": rect.w,
            "h": rect.h,
            "horizontal": rect.horizontal,
            "first": rect.first,
            "second": rect.second,
        }
        for index, ((rect, _), placement) in enumerate(zip(laid, placements, strict=True))
    ]
    return {"box": list(box), "tiles": tiles}
