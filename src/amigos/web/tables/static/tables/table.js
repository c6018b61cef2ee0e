// The live table: what a seated player or a spectator sees, kept in step with the table server.
//
// It speaks the table protocol of docs/protocol.md over the page's one WebSocket (opened by
// amigos/app.js; shared through document events). The server decides everything (legal plays,
// clock, scores); this page draws the state, applies versioned events in order, and sends plays.
// Text typed by players is only ever inserted with textContent.

import { layout } from "./layout.js";
import { drawLine, tileGroup } from "./board.js";
import { closeResult, copyRevealed, copySheet, openResult } from "./results.js";
import { dealFromKey, dealMatches, verifyCommitment } from "./fairness.js";
import { chatActions, lineActions } from "../amigos/chat_actions.js";
import { setupTabs } from "./tabs.js";
import { dateTime } from "../amigos/clock.js";

const page = document.getElementById("table-page");
const labels = JSON.parse(document.getElementById("table-labels").textContent);
const tableId = Number(page.dataset.tableId);
const joinAs = page.dataset.joinAs;
const $ = (id) => document.getElementById(id);

const REPLAY_STEP_MS = 180;
// A long catch-up is laid faster, so that it takes about this long in all: each step shares what
// is left of it among the moves still to lay (at most REPLAY_STEP_MS, at least REPLAY_MIN_STEP_MS,
// so the eye still follows the line).
const CATCH_UP_MS = 3000;
const REPLAY_MIN_STEP_MS = 25;
const HAND_END_MS = 6000;
const SVG = "http://www.w3.org/2000/svg";

let state = null; // the last snapshot, brought up to date by the events since
let joined = false;
let joining = false;
let replaying = false;
let clockTimer = null;
let clockEnd = 0; // performance.now() value at which the turn's time runs out
let angrySeat = null; // the seat shown with the angry face (an automatic pass) until someone plays
let handEndShownAt = 0;
let endedLine = null; // the line of the hand whose result is shown
let lostConnection = false;
let catchUpEnds = 0; // performance.now() by which the moves being laid should all be down (0: none)
let joinSince = null; // the version the join on its way asked from (null: a snapshot)
let myId = null; // this player's user id (from the socket's welcome), to offer no action on their own lines
const queue = [];
let pendingPlay = null; // the play on its way to the server (or refused as stale): never lost
const MAX_TRIES = 3; // how often one play is sent again after stale refusals
const afterJoin = []; // what waits for the page to have caught up with the table
let cancelNotice = null; // why the table was cancelled, as its `cancelled` event said

// -- small helpers --------------------------------------------------------------------------------

function format(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, name) => (values[name] === undefined ? "" : String(values[name])));
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function send(type, payload, reply) {
  const detail = { type, payload, reply };
  document.dispatchEvent(new CustomEvent("amigos:send", { detail }));
  return detail.sent === true;
}

function tileName(tile) {
  const [high, low] = tile.split("-");
  return high === low ? format(labels.double, { value: high }) : format(labels.tile, { high, low });
}

function lineKind() {
  return state && state.hand && state.hand.view ? state.hand.view.line.kind : "two-ended";
}

function armName(arm) {
  return (labels.arms[lineKind()] || {})[arm] || arm;
}

// The words of a seat's name that may break, and where, on a narrow seat box: "Compu-tadora" in
// the labels gives "Compu\u00ADtadora", which breaks as "Compu-" and "tadora" on a 360 px phone
// instead of "Computador" and "a" (Chromium does not hyphenate Spanish). A soft hyphen is only a
// place to break: screen readers read the word whole.
const NAME_BREAKS = String(labels.name_breaks || "")
  .split(/\s+/)
  .filter((word) => word.includes("-"))
  .map((word) => [word.replaceAll("-", ""), word.replaceAll("-", "\u00AD")]);

function breakableName(name) {
  return NAME_BREAKS.reduce((text, [whole, soft]) => text.replaceAll(whole, soft), name);
}

function seatName(seat) {
  const entry = state.seats.find((s) => s.seat === seat);
  if (!entry) return "?";
  if (seat === state.seat) return `${entry.name} (${labels.you})`;
  return entry.name;
}

function sideOf(seat) {
  const variant = state.table.variant;
  return variant.startsWith("amigos") || variant === "cuban-2v2" ? seat % 2 : seat;
}

function sideNames(side) {
  const names = state.sheet && state.sheet.sides ? state.sheet.sides[side] : null;
  if (names) return readerNames(names);
  return state.seats.filter((s) => sideOf(s.seat) === side).map((s) => s.name).join(labels.and);
}

function announce(text) {
  const announcer = $("announcer");
  const line = element("p", null, text);
  announcer.append(line);
  while (announcer.children.length > 6) announcer.firstElementChild.remove();
}

function feedback(text) {
  const node = $("play-feedback");
  node.textContent = text;
  node.dataset.shown = text ? "true" : "false";
}

function errorText(code) {
  return labels.errors[code] || labels.errors.bad_payload;
}

// -- drawing --------------------------------------------------------------------------------------

// Where each seat sits on screen: my seat at the bottom, the turn going to my right.
function slotOf(seat) {
  const players = state.table.players;
  const me = state.seat === null ? 0 : state.seat;
  const offset = (seat - me + players) % players;
  if (players === 2) return offset === 0 ? "bottom" : "top";
  if (players === 3) return ["bottom", "right", "left"][offset];
  return ["bottom", "right", "top", "left"][offset];
}

// The smiley for the player in turn and the angry red face for an automatic pass, drawn (no
// emoji font needed), with their meaning in words for screen readers.
function faceIcon(mood) {
  const wrapper = element("span", `seat__face seat__face--${mood}`);
  wrapper.dataset.face = mood;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const part = (tag, attributes) => {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    svg.append(node);
  };
  part("circle", { cx: 12, cy: 12, r: 11, class: "face__skin" });
  part("circle", { cx: 8, cy: 9.5, r: 1.6, class: "face__eye" });
  part("circle", { cx: 16, cy: 9.5, r: 1.6, class: "face__eye" });
  if (mood === "turn") part("path", { d: "M6.5 14 Q12 19.5 17.5 14", class: "face__mouth" });
  else {
    part("path", { d: "M7 16.8 Q12 12.8 17 16.8", class: "face__mouth" });
    part("path", { d: "M5.5 6 L10 8", class: "face__mouth" });
    part("path", { d: "M18.5 6 L14 8", class: "face__mouth" });
  }
  wrapper.append(svg);
  wrapper.append(element("span", "visually-hidden", mood === "turn" ? labels.face_turn : labels.face_angry));
  return wrapper;
}

function renderSeats() {
  for (const slot of document.querySelectorAll("[data-slot]")) slot.replaceChildren();
  const view = state.hand && state.hand.view;
  const turnSeat = state.turn ? state.turn.seat : null;
  for (const entry of state.seats) {
    const slot = document.querySelector(`[data-slot="${slotOf(entry.seat)}"]`);
    if (!slot) continue;
    const box = element("div", "seat");
    box.dataset.seat = String(entry.seat);
    if (entry.seat === turnSeat) box.classList.add("seat--turn");
    if (entry.seat === state.seat) box.classList.add("seat--me");
    const head = element("p", "seat__head");
    if (entry.seat === turnSeat && !replaying) head.append(faceIcon("turn"));
    else if (entry.seat === angrySeat) head.append(faceIcon("angry"));
    head.append(element("span", "seat__name", breakableName(entry.name)));
    box.append(head);
    box.append(seatPlace(entry));
    const info = element("p", "seat__info");
    if (view && view.hand_sizes) {
      const count = view.hand_sizes[entry.seat];
      const held = element("span", "seat__count", count === 1 ? labels.one_tile_held : format(labels.tiles_held, { count }));
      held.dataset.count = String(count);
      info.append(held);
    }
    const cards = entry.cards || { yellow: 0, blue: 0, red: 0 };
    const cardBox = element("span", "cards");
    cardBox.append(element("span", "visually-hidden", format(labels.card_counts, cards)));
    for (const colour of ["yellow", "blue", "red"]) {
      const card = element("span", `card card--${colour}`, String(cards[colour] || 0));
      card.setAttribute("aria-hidden", "true");
      card.title = labels.colours[colour];
      if (cards[colour]) card.classList.add("card--given");
      cardBox.append(card);
    }
    info.append(cardBox);
    box.append(info);
    if (entry.invitation === "pending") box.append(element("p", "seat__state", labels.invited));
    if (entry.reconnect_deadline) {
      const waiting = element("p", "seat__state seat__state--away");
      waiting.dataset.deadline = entry.reconnect_deadline;
      waiting.dataset.name = entry.name;
      box.append(waiting);
    }
    if (entry.held_by_computer) box.append(element("p", "seat__state", format(labels.computer_holds, { name: entry.name })));
    if (entry.seat === turnSeat && !replaying && state.table.status === "playing") box.append(seatClock(entry));
    if (entry.kind === "human" && entry.user_id !== myId) box.append(reportSeatButton(entry));
    slot.append(box);
  }
  renderAway();
}

// Where a seat sits from the viewer's place and which team it plays for, in words, on every screen
// size (issue 38: on a phone the three others sat in an unlabelled row). A spectator sees the teams.
function seatPlace(entry) {
  const players = state.table.players;
  const parts = [];
  if (state.seat !== null) {
    const offset = (entry.seat - state.seat + players) % players;
    const places = players === 4 ? ["you", "right", "partner", "left"] : players === 3 ? ["you", "right", "left"] : ["you", "opposite"];
    parts.push(labels.places[places[offset]]);
  }
  const partnered = state.seats.some((other) => other.seat !== entry.seat && other.team === entry.team);
  if (partnered && typeof entry.team === "number") parts.push(format(labels.team, { team: "AB"[entry.team] || String(entry.team + 1) }));
  const place = element("p", "seat__place", parts.join(" · "));
  place.dataset.place = parts.length ? "shown" : "none";
  return place;
}

// The turn's countdown on the seat that is to move, whoever it is (issue 38: the others saw a name
// and no clock). Its seconds are filled by the clock's tick (renderClock); a seat whose clock would
// reveal its tiles (docs/protocol.md, "The turn clock for the others") shows none. "Thinking…" is
// said of a computer player (or one holding an absent player's seat), only on the seat in turn, and
// whatever clock its turn runs on ("computer", or a Cuban table's 30 s "timed").
function seatClock(entry) {
  const clock = element("p", "seat__clock");
  const time = element("span", "seat__clock-time", "");
  time.setAttribute("aria-hidden", "true"); // the table's clock (role=timer) says it to readers
  clock.append(time);
  const computer = entry.kind === "computer" || entry.held_by_computer || (state.turn && state.turn.situation === "computer");
  if (computer) clock.append(element("span", "seat__thinking", labels.thinking));
  return clock;
}

// A seated player is reported from their seat (the report names this table and its match).
function reportSeatButton(entry) {
  const button = element("button", "button button--link seat__report", labels.actions.report);
  button.type = "button";
  button.setAttribute("aria-label", format(labels.actions.report_player, { name: entry.name }));
  button.dataset.report = "seat";
  button.dataset.playerId = String(entry.user_id);
  button.dataset.name = entry.name;
  return button;
}

// The waiting players' countdown while someone is away (5 minutes to come back).
setInterval(() => renderAway(), 1000);
function renderAway() {
  for (const node of document.querySelectorAll(".seat__state--away")) {
    const left = Math.max(0, Date.parse(node.dataset.deadline) - serverNow());
    const minutes = Math.floor(left / 60000);
    const seconds = Math.floor((left % 60000) / 1000);
    node.textContent = format(labels.waiting_for, { name: node.dataset.name, time: `${minutes}:${String(seconds).padStart(2, "0")}` });
  }
}

// The server's clock, estimated from its last message and our monotonic clock.
let serverOffset = null;
function noteServerTime(now) {
  if (!now) return;
  serverOffset = { server: Date.parse(now), local: performance.now() };
}
function serverNow() {
  if (!serverOffset) return Date.now();
  return serverOffset.server + (performance.now() - serverOffset.local);
}

function renderLine() {
  const svg = $("line");
  const view = state.hand && state.hand.view;
  // While the hand's result is shown, the line it ended with stays under it (the next hand may
  // already be dealt and even started behind the dialog).
  const line = $("hand-end").open && endedLine ? endedLine : view ? view.line : { placements: [] };
  const board = $("board");
  // The view box takes the board's shape; the board takes what the felt leaves (see table.css).
  const aspect = Math.min(4, Math.max(0.3, board.clientWidth / Math.max(1, board.clientHeight)));
  drawLine(svg, layout(line, aspect));
  $("board-waiting").hidden = line.placements.length > 0 || (state.table.status === "playing" && view !== null);
  const ends = line.ends || {};
  const endsText = Object.entries(ends).map(([arm, value]) => format(labels.end_value, { arm: armName(arm), value }));
  const lastPlacement = line.placements[line.placements.length - 1];
  svg.setAttribute(
    "aria-label",
    line.placements.length === 0
      ? $("line").dataset.emptyLabel || svg.getAttribute("aria-label")
      : `${line.placements.length} · ${tileName(lastPlacement.tile)} · ${format(labels.ends, { ends: endsText.join(", ") })}`,
  );
}

function legalEntry(tile) {
  if (!state.turn || state.turn.seat !== state.seat) return null;
  return (state.turn.legal || []).find((entry) => entry.tile === tile) || null;
}

// The hand is brought up to date in place: each tile keeps its one button for as long as it is
// held, and only its marks (playable, which arms) change. A hand rebuilt on every message of the
// table (as it was) replaced the button a player had just focused, tapped or pressed Enter on: on a
// slow phone the key or the tap then reached a button no longer in the page, and the play was lost.
function renderHand() {
  const container = $("my-hand");
  if (!container) return;
  const view = state.hand && state.hand.view;
  const tiles = view && view.hand ? view.hand : [];
  const myTurn = state.turn && state.turn.seat === state.seat && !replaying;
  const focused = container.contains(document.activeElement) ? document.activeElement.dataset.tile : null;
  const held = new Map([...container.querySelectorAll(":scope > [data-tile]")].map((button) => [button.dataset.tile, button]));
  const buttons = tiles.map((tile) => {
    const button = held.get(tile) || tileButton(tile);
    held.delete(tile);
    const entry = myTurn ? legalEntry(tile) : null;
    const playable = entry !== null;
    button.classList.toggle("my-tile--playable", playable);
    if (playable) button.dataset.arms = (entry.arms || []).join(" ");
    else delete button.dataset.arms;
    if (myTurn) button.setAttribute("aria-disabled", playable ? "false" : "true");
    else button.removeAttribute("aria-disabled");
    return button;
  });
  for (const gone of held.values()) gone.remove();
  // Moved only when the order changed (a drawn tile, a new deal): moving a node takes its focus.
  const current = [...container.children];
  if (current.length !== buttons.length || buttons.some((button, index) => current[index] !== button)) {
    container.replaceChildren(...buttons);
  }
  if (focused && document.activeElement === document.body) {
    const again = container.querySelector(`[data-tile="${focused}"]`);
    if (again) again.focus();
  }
}

function tileButton(tile) {
  const [high, low] = tile.split("-").map(Number);
  const button = element("button", "my-tile");
  button.type = "button";
  button.dataset.tile = tile;
  button.setAttribute("aria-label", tileName(tile));
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 30 60");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.append(tileGroup(0, 0, 30, false, high, low));
  button.append(svg);
  return button;
}

function renderClock() {
  const clock = $("clock");
  clearInterval(clockTimer);
  if (!state.turn || replaying || state.table.status !== "playing") {
    clock.hidden = true;
    return;
  }
  clock.hidden = false;
  if (state.turn.seat === state.seat) tabs.attention("felt", labels.tab_your_turn);
  // Which hand the clock counts for: a clock is never left over from a hand that ended.
  clock.dataset.hand = state.hand ? String(state.hand.number) : "";
  clock.dataset.situation = state.turn.situation || "";
  clock.dataset.seconds = state.turn.seconds ? String(state.turn.seconds) : ""; // the turn's full length
  $("clock-who").textContent = seatName(state.turn.seat);
  $("clock-situation").textContent = labels.situations[state.turn.situation] || "";
  clock.setAttribute("aria-label", format(labels.clock_label, { name: seatName(state.turn.seat) }));
  if (clockEnd === null) {
    // another seat's turn whose clock would reveal its tiles (docs/protocol.md): no countdown
    $("clock-time").textContent = "";
    clock.dataset.urgent = "false";
    for (const node of document.querySelectorAll(".seat__clock-time")) node.textContent = "";
    renderAway();
    return;
  }
  // A correspondence turn lasts days: it shows until when (in the player's zone), not the seconds.
  const deadline = state.turn.deadline;
  const tick = () => {
    const left = Math.max(0, Math.ceil((clockEnd - performance.now()) / 1000));
    const shown = state.table.kind === "correspondence"
      ? format(labels.clock_until, { when: dateTime(deadline) })
      : format(labels.seconds, { seconds: left });
    $("clock-time").textContent = shown;
    clock.dataset.urgent = left <= 5 ? "true" : "false";
    for (const node of document.querySelectorAll(".seat__clock-time")) {
      node.textContent = shown;
      node.dataset.urgent = clock.dataset.urgent;
    }
    renderAway();
  };
  tick();
  clockTimer = setInterval(tick, 250);
}

// Cuban: the draw of set-aside tiles that chose the first leader, shown through the match's first
// hand (the server sends it with that hand's start, and in the snapshot: docs/protocol.md).
function leadDrawText(draw) {
  const draws = draw.draws.map(([seat, tile]) => format(labels.lead_draw_entry, { name: seatName(seat), tile }));
  return format(labels.lead_draw, { draws: draws.join(", "), name: seatName(draw.leader) });
}

// The match whose draw was read out: a page that joins during the first hand (from the lobby the
// match has always started by then) reads it out once, as one there at the deal heard it.
let leadDrawRead = null;

function announceLeadDraw() {
  if (leadDrawRead === state.table.match) return;
  leadDrawRead = state.table.match;
  announce(leadDrawText(state.lead_draw));
}

function renderLeadDraw() {
  const node = $("lead-draw");
  const draw = state.lead_draw;
  node.hidden = !draw || !state.hand || state.hand.number !== 1;
  node.textContent = node.hidden ? "" : leadDrawText(draw);
  node.title = node.textContent; // the whole draw, when a narrow screen cuts the line short
  if (!node.hidden) announceLeadDraw();
}

function renderStatus() {
  renderLeadDraw();
  const view = state.hand && state.hand.view;
  const boneyard = $("boneyard");
  const drawGame = view && !state.table.variant.startsWith("amigos") && !state.table.variant.startsWith("cuban");
  boneyard.hidden = !drawGame;
  if (drawGame) boneyard.textContent = format(labels.boneyard, { count: view.boneyard_size });
  const points = $("play-points");
  const fives = drawGame && !state.table.variant.startsWith("draw");
  points.hidden = !fives;
  if (fives) {
    const parts = view.play_points.map((value, side) => `${sideNames(side)}: ${value}`);
    points.textContent = `${labels.play_points} — ${parts.join(" · ")}`;
  }
  const startBox = $("start-box");
  startBox.hidden = state.table.status !== "inviting";
  if (!startBox.hidden) {
    const items = state.seats.map((entry) => {
      const item = element("li", `invitation invitation--${entry.invitation}`);
      item.append(element("span", null, `${labels.positions[entry.position] || entry.position}: ${entry.name}`));
      item.append(element("span", "invitation__state", entry.invitation === "pending" ? labels.invited : "✓"));
      return item;
    });
    $("invitation-list").replaceChildren(...items);
    renderStartState();
  }
}

// Before the match (spec §2): once every seat has accepted, the organizer's button starts it and
// the others read whom the table waits for.
function renderStartState() {
  const everyone = state.seats.every((entry) => entry.invitation === "accepted");
  const organizer = state.seats.find((entry) => entry.user_id === state.table.organizer_id);
  const mine = state.seat !== null && state.seat !== undefined && state.seats[state.seat];
  const organizing = Boolean(mine && organizer && mine.seat === organizer.seat);
  let text = labels.start_answers;
  if (everyone && organizing) text = labels.start_ready;
  else if (everyone) text = format(labels.start_waiting, { name: organizer ? seatName(organizer.seat) : "" });
  const status = $("start-state");
  if (status.textContent !== text) status.textContent = text;
  const button = document.getElementById("start-match");
  if (button && !button.dataset.sending) button.disabled = !everyone;
}

function reviewUrl(hand) {
  // data-review-url is the review page of match 0, hand 0: another hand's is the same with its numbers
  return page.dataset.reviewUrl.replace(/\/0\/mano\/0\//, `/${state.table.match}/mano/${hand}/`);
}

function reviewLink(hand) {
  if (joinAs !== "seat" || !page.dataset.reviewUrl || typeof hand !== "number" || !state.table.match) return null;
  const link = element("a", "sheet__review");
  link.href = reviewUrl(hand);
  link.target = "_blank";
  link.rel = "noopener";
  return link;
}

function renderSheet() {
  const holder = $("sheet");
  const sheet = state.sheet;
  if (!sheet || !sheet.sides) {
    holder.replaceChildren();
    return;
  }
  const table = element("table", "sheet__table");
  const head = element("thead");
  const headRow = element("tr");
  headRow.append(element("th", null, labels.hand_column));
  sheet.sides.forEach((names) => {
    const th = element("th", null, readerNames(names));
    th.scope = "col";
    headRow.append(th);
  });
  head.append(headRow);
  table.append(head);
  const bodyRows = element("tbody");
  const totals = element("tr", "sheet__totals");
  totals.append(element("th", null, labels.total));
  (sheet.shown_totals || sheet.totals).forEach((value, side) => {
    const cell = element("td", null, String(value));
    if (sheet.winner === side) cell.classList.add("sheet__winner");
    totals.append(cell);
  });
  bodyRows.append(totals);
  for (const row of sheet.rows) {
    const tr = element("tr");
    const th = element("th", null, String(row.hand));
    th.scope = "row";
    const review = reviewLink(row.hand);
    if (review) {
      // A seated player can review their own plays in any hand of the match that ended.
      review.textContent = String(row.hand);
      review.append(element("span", "visually-hidden", ` — ${format(labels.review_hand, { number: row.hand })}`));
      th.replaceChildren(review);
    }
    tr.append(th);
    row.cells.forEach((cell) => tr.append(element("td", null, cell || (row.mark ? row.mark : ""))));
    bodyRows.append(tr);
  }
  table.append(bodyRows);
  const parts = [table];
  if (sheet.no_score && state.table.variant === "amigos-hands") {
    const row = element("p", "sheet__no-score");
    row.append(element("strong", null, `${labels.no_score_row}: `));
    row.append(element("span", "sheet__marks", sheet.no_score.join(" ") || "—"));
    parts.unshift(row);
  }
  holder.replaceChildren(...parts);
}

function renderFairness() {
  $("commitment").textContent = state.hand && state.hand.commitment ? state.hand.commitment : "—";
  const items = (state.previous_hands || []).map((hand) => {
    const item = element("li");
    const button = element("button", "button button--link", format(labels.verify, { number: hand.number }));
    button.type = "button";
    button.dataset.verify = String(hand.number);
    item.append(button);
    const code = element("code", "hash", hand.commitment);
    item.append(code);
    return item;
  });
  $("verified-hands").replaceChildren(...items);
}

function renderChat(lines) {
  const log = $("table-chat-log");
  for (const line of lines) {
    const item = element("li", "chat__line");
    item.dataset.authorId = String(line.author_id);
    item.append(element("span", "chat__author", line.author));
    item.append(element("span", "chat__text", line.text));
    if (line.author_id !== myId) item.append(lineActions(labels.actions, line));
    log.append(item);
  }
  while (log.children.length > 200) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

function renderVotes() {
  const box = $("votes");
  const votes = state.votes;
  if (!votes || state.table.status !== "voting") {
    closeResult(box);
    return;
  }
  if (!replaying) openResult(box);
  // Only people vote (computer seats do not): listing a computer as "not chosen yet" read as if
  // the player had to wait for it.
  const items = state.seats.filter((entry) => entry.kind !== "computer").map((entry) => {
    const choice = votes.choices ? votes.choices[String(entry.seat)] : null;
    const item = element("li", null, `${entry.name}: ${choice ? labels.choices[choice] : labels.not_chosen}`);
    item.dataset.seat = String(entry.seat);
    return item;
  });
  $("vote-list").replaceChildren(...items);
  const mine = votes.choices ? votes.choices[String(state.seat)] : null;
  for (const button of box.querySelectorAll("[data-vote]")) button.setAttribute("aria-pressed", String(button.dataset.vote === mine));
}

function render() {
  if (!state) return;
  renderSeats();
  renderLine();
  renderHand();
  renderClock();
  renderStatus();
  renderSheet();
  copySheet($("sheet"), page);
  renderFairness();
  renderVotes();
  renderReshuffle();
  closeStaleQuestion();
}

// -- the state and its events ---------------------------------------------------------------------

function startClock(turn, now) {
  noteServerTime(now);
  if (!turn) return;
  if (!turn.deadline) {
    clockEnd = null;
    return;
  }
  const left = Date.parse(turn.deadline) - Date.parse(now);
  clockEnd = performance.now() + Math.max(0, left);
}

// A computer player's name in the reader's language ("Computer North (hard)" on an English page):
// the server names every audience's seats alike, in Spanish (seat_names.computer_name), and the page
// has each seat's name in its own language (seat_names.computer_label, through the labels).
// The score sheet comes from the record, which keeps the shared names: `sharedNames` maps each to
// the reader's.
const sharedNames = new Map();
function readerName(entry) {
  if (entry.kind !== "computer") return entry;
  const names = (labels.computer_names || {})[String(state.table.players)];
  const name = names && names[entry.seat] && names[entry.seat][entry.level];
  if (!name) return entry;
  sharedNames.set(entry.name, name);
  return { ...entry, name };
}

function readerNames(names) {
  return names.map((name) => sharedNames.get(name) ?? name).join(labels.and);
}

function applySnapshot(snapshot) {
  state = snapshot;
  state.seats = state.seats.map(readerName);
  const mine = state.seats.find((entry) => entry.seat === state.seat);
  if (mine && mine.user_id !== null) myId = mine.user_id;
  if (state.hand && state.hand.view) state.hand.view.line.placements ||= [];
  startClock(state.turn, snapshot.now);
  $("table-chat-log").replaceChildren();
  renderChat(snapshot.chat || []);
  angrySeat = null;
}

function emptyView(data) {
  const kind = /^(draw|all-|fives)/.test(state.table.variant) ? "spinner" : "two-ended";
  return {
    hand: data.hand || [],
    hand_sizes: data.hand_sizes,
    boneyard_size: data.boneyard_size,
    line: { kind, placements: [], ends: {}, spinner: null, count: 0 },
    to_move: data.leader,
    leader: data.leader,
    history: [],
    play_points: state.sheet && state.sheet.sides ? state.sheet.sides.map(() => 0) : [0, 0, 0, 0].slice(0, state.table.players),
    outcome: null,
    revealed: null,
  };
}

function applyEvent(event) {
  const data = event.data || {};
  noteServerTime(event.now);
  const view = state.hand && state.hand.view;
  switch (event.kind) {
    case "seat_changed": {
      const entry = readerName(data.seat);
      const index = state.seats.findIndex((s) => s.seat === entry.seat);
      if (index >= 0) state.seats[index] = entry;
      else state.seats.push(entry);
      break;
    }
    case "invitation_refused":
      announce(format(data.reason === "expired" ? labels.expired : labels.refused, { name: data.name }));
      feedback(format(data.reason === "expired" ? labels.expired : labels.refused, { name: data.name }));
      break;
    case "started":
      state.table.status = "playing";
      state.table.match = data.match;
      state.lead_draw = null;
      break;
    case "hand_started":
      state.table.status = "playing";
      state.hand = { number: data.number, id: data.id, commitment: data.commitment, view: emptyView(data), reshuffle: data.reshuffle === true };
      state.turn = null;
      angrySeat = null;
      if (data.lead_draw) {
        state.lead_draw = { leader: data.leader, draws: data.lead_draw };
        announceLeadDraw();
      }
      announce(format(labels.hand_started, { number: data.number, name: seatName(data.leader) }));
      closeHandEndSoon();
      break;
    case "played": {
      if (!view) break;
      state.hand.reshuffle = false; // the first tile is down: no new deal any more
      const placement = data.placement;
      view.line.placements.push(placement);
      view.line.ends = data.ends;
      if (view.line.kind === "spinner" && !view.line.spinner) {
        const [high, low] = placement.tile.split("-");
        if (high === low) view.line.spinner = placement.tile;
      }
      if (data.seat === state.seat) view.hand = view.hand.filter((tile) => tile !== data.tile);
      // The last hand's tiles stay on screen a while into the next hand (or until closed).
      if ($("hand-end").open && performance.now() - handEndShownAt > HAND_END_MS) closeResult($("hand-end"));
      if (data.hand_sizes) view.hand_sizes = data.hand_sizes;
      view.history.push({ type: "play", seat: data.seat, tile: data.tile, arm: data.arm, points: data.points || 0 });
      if (data.points) view.play_points[sideOf(data.seat)] += data.points;
      state.turn = null;
      angrySeat = null;
      const name = seatName(data.seat);
      let text;
      if (data.system) text = format(labels.system_played, { name, tile: tileName(data.tile) });
      else if (data.arm === null) text = format(labels.led, { name, tile: tileName(data.tile) });
      else text = format(labels.played, { name, tile: tileName(data.tile), arm: armName(data.arm) });
      const ends = Object.entries(data.ends).map(([arm, value]) => format(labels.end_value, { arm: armName(arm), value }));
      announce(`${text} ${format(labels.ends, { ends: ends.join(", ") })}`);
      if (data.points) announce(format(labels.points_scored, { name, points: data.points }));
      if (data.system) feedback(text);
      break;
    }
    case "drew":
      if (!view) break;
      view.hand_sizes[data.seat] += 1;
      view.boneyard_size = data.boneyard_size;
      if (data.tile && data.seat === state.seat) {
        view.hand.push(data.tile);
        announce(format(labels.you_drew, { tile: tileName(data.tile) }));
      } else announce(format(labels.drew, { name: seatName(data.seat) }));
      view.history.push({ type: "draw", seat: data.seat, tile: data.tile || null });
      break;
    case "passed":
      if (!view) break;
      state.hand.reshuffle = false;
      view.history.push({ type: "pass", seat: data.seat, ends: data.ends });
      angrySeat = data.seat;
      state.turn = null;
      announce(format(labels.passed, { name: seatName(data.seat) }));
      break;
    case "clock":
      state.turn = { seat: data.seat, deadline: data.deadline, seconds: data.seconds, situation: data.situation, legal: data.legal || [] };
      if (view) view.to_move = data.seat;
      startClock(state.turn, event.now);
      if (!replaying) {
        announce(data.seat === state.seat ? labels.your_turn : format(labels.turn_of, { name: seatName(data.seat) }));
        if (data.seat === state.seat) feedback("");
      }
      break;
    case "notice": {
      const template = data.code === "no_blocking" ? labels.no_blocking : labels.fresh_time;
      const text = format(template, { name: seatName(data.seat) });
      announce(text);
      feedback(text);
      break;
    }
    case "card": {
      const entry = state.seats.find((s) => s.seat === data.seat);
      if (entry) entry.cards = data.cards;
      const text = format(labels.card, { colour: labels.colours[data.colour], name: seatName(data.seat) });
      announce(text);
      feedback(text);
      break;
    }
    case "hand_voided":
      reshuffleVoided(data);
      break;
    case "hand_ended":
      handEnded(data);
      break;
    case "match_ended":
      state.sheet = data.sheet;
      state.turn = null;
      if (data.completed) {
        state.table.status = "voting";
        state.votes = { deadline: data.votes_deadline, choices: {} };
      } else {
        // Abandonment or suspension: no vote; everyone goes back to the meeting room.
        state.table.status = "finished";
        state.votes = null;
        if (!replaying) window.setTimeout(() => window.location.assign(page.dataset.lobbyUrl), 6000);
      }
      matchEnded(data);
      break;
    case "vote":
      if (!state.votes) state.votes = { choices: {} };
      state.votes.choices[String(data.seat)] = data.choice;
      // A player who left the table during the vote counts as choosing the meeting room.
      if (data.left) announce(format(labels.vote_left, { name: seatName(data.seat) }));
      else announce(format(labels.voted, { name: seatName(data.seat), choice: labels.choices[data.choice] }));
      break;
    case "votes_closed":
      if (data.result === "communicate" || !data.next_table_id) {
        announce(labels.votes_communicate);
        window.setTimeout(() => window.location.assign(page.dataset.lobbyUrl), 1500);
      } else {
        // data-table-url is the server's URL of table 0: the next table's is the same with its id
        const next = page.dataset.tableUrl.replace(/\/0\/$/, `/${data.next_table_id}/`);
        const text = format(labels.votes_next, { choice: labels.choices[data.result] || data.result });
        announce(text);
        feedback(text);
        window.setTimeout(() => window.location.assign(next), 1500);
      }
      break;
    case "disconnected":
    case "reconnected":
    case "computer_holds":
    case "seat_returned": {
      const entry = state.seats.find((s) => s.seat === data.seat);
      if (entry) {
        entry.reconnect_deadline = event.kind === "disconnected" ? data.reconnect_deadline : null;
        entry.connected = event.kind !== "disconnected";
        if (event.kind === "computer_holds") entry.held_by_computer = true;
        if (event.kind === "seat_returned") entry.held_by_computer = false;
      }
      // While someone is away the game waits: no clock runs until a new one arrives.
      if (event.kind === "disconnected") state.turn = null;
      const template = event.kind === "disconnected" && data.abandon ? labels.abandon : labels[event.kind];
      announce(format(template, { name: seatName(data.seat) }));
      break;
    }
    case "cancelled": {
      // The table never started (an invitation refused or not answered): back to the meeting room.
      state.table.status = "cancelled";
      const text =
        data.reason === "invitations"
          ? labels.cancelled_invitations
          : data.reason === "not_started"
            ? labels.cancelled_not_started
            : data.reason === "suspension"
              ? labels.cancelled_suspension
              : labels.cancelled;
      cancelNotice = text;
      announce(text);
      feedback(text);
      window.setTimeout(() => window.location.assign(page.dataset.lobbyUrl), 2500);
      break;
    }
    default:
      break;
  }
}

function handEnded(data) {
  const view = state.hand && state.hand.view;
  if (view) {
    view.outcome = data.outcome;
    view.revealed = data.revealed;
  }
  state.turn = null;
  state.sheet = data.sheet;
  state.previous_hands = (state.previous_hands || []).filter((h) => h.number !== data.number);
  state.previous_hands.push({ number: data.number, id: data.id, commitment: state.hand ? state.hand.commitment : "", key: data.key, revealed: data.revealed, history: view ? view.history.slice() : [] });
  const outcome = data.outcome;
  let summary;
  if (outcome.end === "domino") {
    summary = format(labels.hand_ended_domino, { name: seatName(outcome.closer), side: sideNames(outcome.winner), points: outcome.points });
  } else if (outcome.winner === null || outcome.winner === undefined) {
    summary = labels.hand_ended_tie;
  } else {
    summary = format(labels.hand_ended_block, { side: sideNames(outcome.winner), points: outcome.points });
  }
  $("hand-end-summary").textContent = summary;
  const items = data.revealed.map((tiles, seat) => {
    const item = element("li", "revealed__seat");
    item.append(element("span", "revealed__name", seatName(seat)));
    const row = element("span", "revealed__tiles");
    // A label on a bare span is not allowed by ARIA; as an image it reads as one list of tiles.
    row.setAttribute("role", "img");
    row.setAttribute("aria-label", tiles.map(tileName).join(", ") || "—");
    for (const tile of tiles) {
      const [high, low] = tile.split("-").map(Number);
      const svg = document.createElementNS(SVG, "svg");
      svg.setAttribute("viewBox", "0 0 20 40");
      svg.setAttribute("class", "revealed__tile");
      svg.setAttribute("aria-hidden", "true");
      svg.dataset.tile = tile;
      svg.append(tileGroup(0, 0, 20, false, high, low));
      row.append(svg);
    }
    item.append(row);
    return item;
  });
  $("revealed").replaceChildren(...items);
  const review = document.getElementById("hand-review");
  if (review) review.href = reviewUrl(data.number);
  stopClock();
  endedLine = view ? structuredClone(view.line) : null;
  if (!replaying) openResult($("hand-end"));
  handEndShownAt = performance.now();
  page.dataset.handsEnded = String(Number(page.dataset.handsEnded || "0") + 1);
  announce(summary);
}

// The next hand has begun: the last hand's result stays over the table until it has been shown for
// HAND_END_MS (or the player closes it), so that the new hand's leader is not kept waiting.
function closeHandEndSoon() {
  const dialog = $("hand-end");
  if (!dialog.open) return;
  const left = Math.max(0, HAND_END_MS - (performance.now() - handEndShownAt));
  window.setTimeout(() => {
    if (performance.now() - handEndShownAt >= HAND_END_MS - 1) closeResult(dialog);
  }, left);
}

// The hand is over: its clock stops at once (no stale countdown under the result).
function stopClock() {
  clearInterval(clockTimer);
  clockEnd = 0;
  $("clock").hidden = true;
  for (const node of document.querySelectorAll(".seat__clock")) node.remove();
}

function matchEnded(data) {
  // The match's dialog takes over, with the last hand's tiles and the final sheet.
  closeResult($("hand-end"));
  stopClock();
  copyRevealed($("revealed"), $("votes-revealed"));
  let text = labels.match_ended_unfinished;
  if (data.completed && data.winner !== null && data.winner !== undefined) {
    text = format(labels.match_ended, { side: sideNames(data.winner) });
  } else if (data.termination === "abandonment" && data.seat !== null && data.seat !== undefined) {
    text = `${format(labels.ended_abandonment, { name: seatName(data.seat) })} ${labels.back_to_lobby}`;
  } else if (data.termination === "suspension") {
    text = `${labels.ended_suspension} ${labels.back_to_lobby}`;
  }
  $("votes-summary").textContent = text;
  announce(text);
}

// Events arrive in version order; a gap means something was lost, so the table is asked again.
// `draw`: false for all but the last event of a message, so the table is drawn once per message.
function receive(event, draw = true) {
  if (!state || event.table_id !== tableId) return;
  if (event.version <= state.version) return;
  if (event.version !== state.version + 1) {
    rejoin();
    return;
  }
  state.version = event.version;
  // The page's version, for tests and tools, always the one applied (also while a catch-up drains).
  page.dataset.version = String(event.version);
  applyEvent(event);
  if (draw && !replaying) render();
}

// A returning player sees what they missed laid move by move, then the table as it is.
function drain() {
  if (queue.length === 0) {
    catchUpEnds = 0;
    replaying = false;
    page.dataset.replaying = "false";
    render();
    return;
  }
  if (!catchUpEnds) catchUpEnds = performance.now() + CATCH_UP_MS;
  // Hands that ended while the player was away are applied at once (their results are on the
  // score sheet); only the hand in play is laid move by move.
  const lastStart = queue.findLastIndex((event) => event.kind === "hand_started");
  for (const event of queue.splice(0, Math.max(0, lastStart))) receive(event, false);
  receive(queue.shift());
  renderLine();
  renderSeats();
  window.setTimeout(drain, replayStep());
}

// The pause before the next missed move: the usual step, shorter when many moves are still to lay.
function replayStep() {
  const left = catchUpEnds - performance.now();
  return Math.max(REPLAY_MIN_STEP_MS, Math.min(REPLAY_STEP_MS, left / Math.max(1, queue.length)));
}

// Replays the current hand's line from its first tile (after a reload).
function replayLine() {
  const view = state.hand && state.hand.view;
  if (!view || view.outcome || view.line.placements.length < 2) return false;
  const placements = view.line.placements;
  const full = { ...view.line };
  replaying = true;
  page.dataset.replaying = "true";
  announce(labels.replaying);
  let shown = 1;
  const step = () => {
    view.line = { ...full, placements: placements.slice(0, shown), spinner: spinnerAmong(placements.slice(0, shown), full) };
    renderLine();
    shown += 1;
    if (shown <= placements.length) window.setTimeout(step, REPLAY_STEP_MS);
    else {
      view.line = full;
      if (queue.length) drain();
      else {
        replaying = false;
        page.dataset.replaying = "false";
        render();
      }
    }
  };
  render();
  step();
  return true;
}

function spinnerAmong(placements, full) {
  if (full.kind !== "spinner" || !full.spinner) return null;
  return placements.some((p) => p.tile === full.spinner) ? full.spinner : null;
}

function join(since) {
  if (joining) return;
  joining = true;
  joinSince = since;
  const sent = send("table.join", { table_id: tableId, since, as: joinAs }, (ok, reply) => {
    joining = false;
    if (!ok) {
      feedback(errorText(reply.code));
      // The table's server is busy (restarting, moving, or its bus just came back): ask again.
      if (reply.code === "busy") window.setTimeout(() => { if (!joined) rejoin(); }, 1000 + Math.random() * 1000);
      return;
    }
    joined = true;
    // What the page missed has come before this reply: a play waiting on it goes on now.
    for (const next of afterJoin.splice(0)) next();
  });
  if (!sent) joining = false;
}

function rejoin() {
  joined = false;
  join(state ? state.version : null);
}

// -- the server's messages ------------------------------------------------------------------------

function onEvent(event, draw) {
  if (replaying || queue.length) {
    queue.push(event);
    return;
  }
  receive(event, draw);
}

// The answer to a join from a version: what the player missed while away (the server sends it before
// its reply). Laid move by move, as at a real table (the online spec, 3.2.3), from the hand in play.
function catchUp(events) {
  replaying = true;
  page.dataset.replaying = "true";
  announce(labels.replaying);
  // No tile stands out as playable while the missed moves are laid (a press then only says so).
  if (state) renderHand();
  queue.push(...events);
  window.setTimeout(drain, REPLAY_STEP_MS);
}

let firstSnapshot = true;

document.addEventListener("amigos:envelope", (event) => {
  const { type, payload } = event.detail;
  if (type === "welcome") {
    myId = payload.user.id;
    join(state ? state.version : null);
  } else if (type === "table.snapshot" && payload.table_id === tableId) {
    applySnapshot(payload);
    page.dataset.version = String(state.version);
    if (firstSnapshot && state.seat !== null) {
      firstSnapshot = false;
      if (replayLine()) return;
    }
    firstSnapshot = false;
    if (!replaying) page.dataset.replaying = "false"; // the page is up to date (tests wait on it)
    render();
    // Opened after the table was called off, or caught up after the event: the event's own words stay.
    if (state.table.status === "cancelled") feedback(cancelNotice || labels.cancelled);
  } else if (type === "table.events" && payload.table_id === tableId) {
    const events = payload.events.map((event) => ({ table_id: payload.table_id, now: payload.now, ...event }));
    if (joining && joinSince !== null && events.length > 1 && !replaying && !queue.length) {
      catchUp(events);
      return;
    }
    // All the events of one stored action, in order: applied together, drawn once.
    events.forEach((event, index) => onEvent(event, index === events.length - 1));
  } else if (type === "table.chat" && payload.table_id === tableId) {
    renderChat([payload]);
    if (payload.author_id !== myId) tabs.attention("chat", labels.tab_new_messages);
  } else if (type === "resync") {
    // The server's bus lost messages for a moment: ask for whatever came after our version now,
    // rather than noticing the gap only at the next event (which may never come: our turn).
    if (state) rejoin();
    else join(null);
  }
});

document.addEventListener("amigos:connection", (event) => {
  const banner = $("connection-banner");
  if (event.detail.state === "lost") {
    lostConnection = true;
    joined = false;
    // A play whose answer was lost with the socket: once back and caught up, the page sees whether
    // it was taken (the turn moved on) or plays it again.
    const pending = pendingPlay;
    if (pending) pending.awaiting = false; // its answer went with the socket
    if (pending && !afterJoin.length) afterJoin.push(() => playAgain(pending));
    banner.hidden = false;
    banner.dataset.state = "lost";
    banner.textContent = labels.connection_lost;
    announce(labels.connection_lost);
  } else if (event.detail.state === "live") {
    if (lostConnection) {
      banner.hidden = false;
      banner.dataset.state = "back";
      banner.textContent = labels.connection_back;
      announce(labels.connection_back);
      window.setTimeout(() => {
        if (banner.dataset.state === "back") banner.hidden = true;
      }, 4000);
    }
    lostConnection = false;
  }
});

// -- the Cuban reshuffle (docs/protocol.md, "table.reshuffle") ----------------------------------------
// The server tells only the seat dealt five or more doubles (`reshuffle: true` in its
// `hand_started` and snapshot); the offer lasts until the hand's first move.

function renderReshuffle() {
  const box = $("reshuffle-offer");
  if (!box) return; // a spectator's page has no offer
  const open = Boolean(state.hand && state.hand.reshuffle && state.table.status === "playing");
  const focused = box.contains(document.activeElement);
  box.hidden = !open;
  if (focused && !open) $("my-hand").focus?.();
}

function reshuffleVoided(data) {
  // The hand_started of the new deal follows in the same batch.
  if (state.hand) state.hand.reshuffle = false;
  announce(format(labels.hand_voided, { name: seatName(data.seat), key: data.key }));
  feedback(format(labels.hand_voided, { name: seatName(data.seat), key: data.key }));
}

$("reshuffle-ask")?.addEventListener("click", () => {
  const sent = send("table.reshuffle", { table_id: tableId, version: state.version }, (ok, reply) => {
    if (!ok) feedback(errorText(reply.code));
  });
  if (!sent) feedback(errorText("offline"));
});

// -- the player's actions -------------------------------------------------------------------------

// The turn a play or a question belongs to: the match, the hand and how many moves it has had. A
// card or a seat's coming and going moves the table's version on but not the turn: the line, and
// so the choice the player made, still stand.
function turnKey() {
  const view = state && state.hand && state.hand.view;
  if (!view || !state.turn) return null;
  return `${state.table.match}:${state.hand.number}:${view.history.length}:${state.turn.seat}`;
}

function myTurn() {
  return Boolean(state && state.turn && state.turn.seat === state.seat && state.table.status === "playing");
}

function sendPlay(tile, arm, leadLeft, tries = 1) {
  // `awaiting`: sent, and its answer not come yet (the only time a second press is ignored).
  const pending = { tile, arm, leadLeft, tries, turn: turnKey(), version: state.version, awaiting: true };
  const payload = { table_id: tableId, version: state.version, tile, arm, lead_left: leadLeft };
  pendingPlay = pending;
  const sent = send("table.play", payload, (ok, reply) => {
    pending.awaiting = false;
    if (pendingPlay !== pending) return;
    if (ok) {
      pendingPlay = null; // the events on their way lay the tile
      return;
    }
    if (reply.code === "stale_version") {
      // The table moved on while the play travelled (a card, a seat coming or going, an event
      // still on its way to a slow page): catch up, then play again if the turn is the same.
      feedback(errorText(reply.code));
      afterJoin.push(() => playAgain(pending));
      rejoin();
      return;
    }
    pendingPlay = null; // refused for good: changed nothing, and the player sees why
    feedback(errorText(reply.code));
  });
  if (!sent) {
    pendingPlay = null;
    feedback(errorText("offline"));
  } else feedback("");
}

// After a stale refusal (or a lost connection), once the page has caught up: the same turn still
// takes the same play, which is sent again; a later turn re-offers the choice, never plays it.
function playAgain(pending) {
  if (pendingPlay !== pending) return;
  if (replaying || queue.length) {
    window.setTimeout(() => playAgain(pending), REPLAY_STEP_MS);
    return;
  }
  pendingPlay = null;
  if (!myTurn()) return;
  const entry = legalEntry(pending.tile);
  if (!entry) return;
  const arms = entry.arms || [];
  const halves = entry.lead_left || [];
  const stillFits = pending.arm === null ? arms.length === 0 && (pending.leadLeft === null || halves.includes(pending.leadLeft)) : arms.includes(pending.arm);
  const again = turnKey() === pending.turn && stillFits && pending.tries < MAX_TRIES;
  if (again) sendPlay(pending.tile, pending.arm, pending.leadLeft, pending.tries + 1);
  // A later turn (or a table that kept moving on through every try): the player decides again on
  // the table as it is now. A tile with one way only is not laid for them (the refusal's words
  // stay, the focus is back on the tile: Enter plays it); one with several asks the question again.
  else if (arms.length > 1 || halves.length > 1) play(pending.tile);
  else focusTile(pending.tile);
}

// The keyboard's place goes back to a tile still in the hand (after a question or a refusal), so
// that the next key acts on it and not on whatever came next in the page.
function focusTile(tile) {
  const button = document.querySelector(`#my-hand [data-tile="${tile}"]`);
  if (button && !$("arm-dialog").open) button.focus();
}

// Asks which arm (or, for a spinner game's lead, which half faces left); resolves to the choice, or
// null if the player cancels or the turn it was asked for is over (render closes it then).
let asking = null;
function ask(tile, title, options) {
  const dialog = $("arm-dialog");
  $("arm-title").textContent = title;
  const buttons = options.map((option) => {
    const button = element("button", "button button--primary", option.label);
    button.type = "submit";
    button.value = option.value;
    button.dataset.choice = option.value;
    return button;
  });
  $("arm-buttons").replaceChildren(...buttons);
  const question = { turn: turnKey(), tile };
  asking = question;
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        const value = dialog.returnValue;
        if (asking === question) asking = null;
        const chosen = value && value !== "cancel" && turnKey() === question.turn && myTurn() ? value : null;
        if (chosen === null) focusTile(tile);
        resolve(chosen);
      },
      { once: true },
    );
    dialog.returnValue = "";
    dialog.showModal();
    if (buttons[0]) buttons[0].focus();
  });
}

// A question never outlives the turn it was asked for.
function closeStaleQuestion() {
  const dialog = $("arm-dialog");
  if (!asking || !dialog.open) return;
  if (myTurn() && turnKey() === asking.turn && !replaying) return;
  asking = null;
  dialog.close("cancel");
  // Said, so that a player whose choice the table did not wait for knows the tile was not played
  // (what ended the turn, a tile played for them or a seat gone, is in the announcements).
  feedback(labels.question_closed);
}

async function play(tile) {
  if (!state || state.seat === null) return;
  if (replaying) {
    feedback(labels.replaying);
    return;
  }
  if (state.table.status !== "playing" || !state.turn || state.turn.seat !== state.seat) {
    feedback(errorText("not_your_turn"));
    return;
  }
  const entry = legalEntry(tile);
  if (!entry) {
    feedback(errorText("does_not_fit"));
    return;
  }
  // A second Enter or tap while this turn's play is on its way (or its question is open) sends
  // nothing more: a second play could only be refused, and its refusal would hide the first's fate.
  if ((pendingPlay && pendingPlay.awaiting && pendingPlay.turn === turnKey()) || asking) return;
  const arms = entry.arms || [];
  const name = tileName(tile);
  if (arms.length === 0) {
    const halves = entry.lead_left || [];
    if (halves.length > 1) {
      const choice = await ask(tile, format(labels.choose_left, { tile: name }), halves.map((value) => ({ value: String(value), label: format(labels.half, { value }) })));
      if (choice === null) return;
      sendPlay(tile, null, Number(choice));
    } else sendPlay(tile, null, halves.length === 1 ? halves[0] : null);
    return;
  }
  if (arms.length === 1) {
    sendPlay(tile, arms[0], null);
    return;
  }
  const ends = state.hand.view.line.ends || {};
  const options = arms.map((arm) => ({ value: arm, label: `${armName(arm)} (${ends[arm]})` }));
  const choice = await ask(tile, format(labels.choose_arm, { tile: name }), options);
  if (choice !== null) sendPlay(tile, choice, null);
}

let lastPointer = "mouse";
const hand = $("my-hand");
if (hand) {
  hand.addEventListener("pointerdown", (event) => {
    lastPointer = event.pointerType || "mouse";
  });
  hand.addEventListener("click", (event) => {
    const button = event.target.closest("[data-tile]");
    if (!button) return;
    // A tap lays the tile; so does Enter or Space (a click with no pointer). A mouse lays it with a
    // double click, so that one stray click never plays.
    if (event.detail === 0 || lastPointer === "touch" || lastPointer === "pen") play(button.dataset.tile);
    else button.focus();
  });
  hand.addEventListener("dblclick", (event) => {
    const button = event.target.closest("[data-tile]");
    if (button) play(button.dataset.tile);
  });
}

const chatForm = $("table-chat-form");
if (chatForm) {
  chatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("table-chat-input");
    if (!input.value.trim()) return;
    const sent = send("table.chat", { table_id: tableId, text: input.value }, (ok, reply) => {
      $("table-chat-feedback").textContent = ok ? "" : errorText(reply.code);
      if (ok) input.value = "";
    });
    if (!sent) $("table-chat-feedback").textContent = errorText("offline");
  });
}

// Mute and report from the table's chat, report a seated player (chat_actions.js).
chatActions({
  labels: labels.actions,
  log: $("table-chat-log"),
  roots: [$("table-chat-log"), $("felt")],
  feedback: $("table-chat-feedback"),
  send,
  reportPayload: (button) => {
    const payload = { player_id: Number(button.dataset.playerId), table_id: tableId };
    if (button.dataset.report !== "seat") payload.table_line_id = Number(button.dataset.report);
    return payload;
  },
});

// A vote refused as stale (another seat voted a moment before, and its event is still on its way)
// is cast again once the page caught up, while the vote is open: it used to be dropped silently.
let pendingVote = null;
function sendVote(choice, tries = 1) {
  const vote = { choice, tries };
  pendingVote = vote;
  const sent = send("table.vote", { table_id: tableId, version: state.version, choice }, (ok, reply) => {
    if (pendingVote !== vote) return; // the player chose again meanwhile
    if (ok) pendingVote = null;
    else if (reply.code === "stale_version" && tries < MAX_TRIES) {
      afterJoin.push(() => voteAgain(vote));
      rejoin();
    } else {
      pendingVote = null;
      feedback(errorText(reply.code));
    }
  });
  if (!sent) {
    pendingVote = null;
    feedback(errorText("offline"));
  }
}

function voteAgain(vote) {
  if (pendingVote !== vote) return;
  if (replaying || queue.length) {
    window.setTimeout(() => voteAgain(vote), REPLAY_STEP_MS);
    return;
  }
  pendingVote = null;
  const mine = state.votes && state.votes.choices ? state.votes.choices[String(state.seat)] : null;
  if (state.table.status === "voting" && mine !== vote.choice) sendVote(vote.choice, vote.tries + 1);
}

$("votes").addEventListener("click", (event) => {
  const button = event.target.closest("[data-vote]");
  if (!button || !state) return;
  sendVote(button.dataset.vote);
});

$("hand-end-close").addEventListener("click", () => {
  closeResult($("hand-end"));
});
// Closed (by its button, Escape or the next hand): the table shows the hand in play again.
$("hand-end").addEventListener("close", () => {
  if (state) renderLine();
});

$("verified-hands").addEventListener("click", async (event) => {
  const button = event.target.closest("[data-verify]");
  if (!button || !state) return;
  const hand = state.previous_hands.find((h) => String(h.number) === button.dataset.verify);
  if (!hand) return;
  const result = $("verify-result");
  const ok = await verifyCommitment(hand.key, hand.id, hand.commitment);
  if (!ok) {
    result.textContent = labels.verify_bad;
    result.dataset.ok = "false";
    return;
  }
  result.dataset.ok = "true";
  if (!hand.revealed || !hand.history) {
    result.textContent = labels.verify_commit_only;
    return;
  }
  const shape = DEALS[state.table.variant.split("-")[0]] || DEALS.draw;
  const handSize = shape.handSize(state.table.players);
  const deal = await dealFromKey(hand.key, shape.maxPip, state.table.players, handSize);
  const matches = dealMatches(deal, hand.revealed, hand.history);
  result.textContent = matches ? labels.verify_ok : labels.verify_deal_bad;
  result.dataset.ok = String(matches);
});

// The sets and hand sizes of the rule families (SPEC-NOTES), to re-deal a hand from its key.
const DEALS = {
  amigos: { maxPip: 6, handSize: () => 7 },
  cuban: { maxPip: 9, handSize: () => 10 },
  draw: { maxPip: 6, handSize: (players) => (players === 2 ? 7 : 5) },
};

// The felt takes the viewport's height below its own top (table.css reads --felt-top).
function fitFelt() {
  const top = $("felt").getBoundingClientRect().top + window.scrollY;
  page.style.setProperty("--felt-top", `${Math.round(top)}px`);
}

window.addEventListener("resize", () => {
  fitFelt();
  if (state) renderLine();
});
fitFelt();

// On a phone: the felt or one side panel (tabs.js). Back on the felt, it is measured and drawn
// again (hidden, it had no size); a chat line or the player's turn marks its tab meanwhile.
const tabs = setupTabs(page, (shown) => {
  if (shown !== "felt") {
    if (state && state.turn && state.turn.seat === state.seat) tabs.attention("felt", labels.tab_your_turn);
    return;
  }
  fitFelt();
  if (state) renderLine();
});

$("line").dataset.emptyLabel = $("line").getAttribute("aria-label");
if (document.body.dataset.socketState === "live") join(null);

// The organizer calls off a table whose match has not started (issue 38, item 4); the table's
// `cancelled` event then takes every page back to the meeting room.
function wireCancelTable() {
  const button = document.getElementById("cancel-table");
  if (!button) return;
  button.addEventListener("click", () => {
    button.disabled = true;
    const sent = send("table.cancel", { table_id: tableId }, (ok, reply) => {
      if (ok) return;
      button.disabled = false;
      $("cancel-feedback").textContent = errorText(reply.code);
    });
    if (!sent) {
      button.disabled = false;
      $("cancel-feedback").textContent = errorText("offline");
    }
  });
}

wireCancelTable();

// The organizer starts the match once every seat has accepted; the events that follow (the
// match's start, the first deal) take the box away.
function wireStartMatch() {
  const button = document.getElementById("start-match");
  if (!button) return;
  const refused = (code) => {
    delete button.dataset.sending;
    button.disabled = false;
    $("start-feedback").textContent = errorText(code);
  };
  button.addEventListener("click", () => {
    button.disabled = true;
    button.dataset.sending = "true";
    $("start-feedback").textContent = "";
    const sent = send("table.start", { table_id: tableId }, (ok, reply) => {
      if (ok) {
        delete button.dataset.sending;
        return;
      }
      refused(reply.code);
    });
    if (!sent) refused("offline");
  });
}

wireStartMatch();
