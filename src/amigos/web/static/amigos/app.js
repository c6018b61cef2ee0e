// Amigos por el Dominó: the live part of every signed-in page.
// One WebSocket per page (presence by heartbeat, idle sign-out) and, in the meeting room, the live
// online list and chat. Text from other players is only ever inserted with textContent.

import { chatActions, lineActions } from "./chat_actions.js";
import { clockTime } from "./clock.js";

const body = document.body;
const socketPath = body.dataset.socketPath;
const signInUrl = body.dataset.signInUrl;
const labelsNode = document.getElementById("lobby-labels");
const labels = labelsNode ? JSON.parse(labelsNode.textContent) : null;

const playersList = document.getElementById("online-players");
const playerCount = document.getElementById("player-count");
const connectionState = document.getElementById("connection-state");
const chatLog = document.getElementById("chat-log");
const chatForm = document.getElementById("chat-form");
const chatInput = document.getElementById("chat-input");
const chatFeedback = document.getElementById("chat-feedback");

let socket = null;
let me = null;
let heartbeatTimer = null;
let nextId = 1;
let retryDelay = 1000;
let signedOut = false;
const pending = new Map();

// Other scripts of the page (the live table, the lobby's tables) share this one socket through
// document events: "amigos:envelope" (each message received), "amigos:connection" (its state,
// also kept in body's data-socket-state), and "amigos:send" ({type, payload, reply}) to send.
function setConnection(state) {
  body.dataset.socketState = state;
  document.dispatchEvent(new CustomEvent("amigos:connection", { detail: { state } }));
  if (!connectionState || !labels) return;
  connectionState.dataset.state = state;
  connectionState.textContent =
    state === "live" ? labels.connected : state === "lost" ? labels.disconnected : labels.connecting;
}

function send(type, payload, onReply) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  const id = nextId++;
  if (onReply) pending.set(id, onReply);
  socket.send(JSON.stringify({ type, id, payload: payload || {} }));
  return true;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// The online list as the server sends it: the whole list once ("presence"), then only what changed
// ("presence.delta", at most one a second). With thousands online the page shows counts, the player
// first, and at most SHOWN names, filtered by the search box.
const SHOWN = 100;
const STATUS_ORDER = ["available", "invited", "playing", "reconnecting"];
const players = new Map();
const playerSearch = document.getElementById("player-search");
const playerSummary = document.getElementById("player-summary");
let renderQueued = false;

function fold(text) {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

// The players who sat at the player's latest tables (the tables panel's data), listed right after
// the player: the platform has no friends list, and these are the people one looks for.
const companionsNode = document.getElementById("table-companions");
const companionsData = companionsNode ? JSON.parse(companionsNode.textContent) : { ids: [], label: "" };
const companions = new Set(companionsData.ids);

function comparePlayers(a, b) {
  if (me && (a.id === me.id) !== (b.id === me.id)) return a.id === me.id ? -1 : 1;
  if (companions.has(a.id) !== companions.has(b.id)) return companions.has(a.id) ? -1 : 1;
  const byStatus = STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status);
  if (byStatus !== 0) return byStatus;
  if (a.signed_in_at !== b.signed_in_at) return a.signed_in_at < b.signed_in_at ? -1 : 1;
  return a.id - b.id;
}

function playerItem(player) {
  const item = element("li", "player");
  item.dataset.userId = String(player.id);
  item.append(element("span", "player__name", player.name));
  if (me && player.id === me.id) item.classList.add("player--me");
  if (companions.has(player.id)) {
    item.classList.add("player--companion");
    item.append(element("span", "player__companion", companionsData.label));
  }
  item.append(element("span", `status status--${player.status}`, labels.status[player.status] || player.status));
  const quintile = player.quintile ? labels.quintile.replace("%(q)s", String(player.quintile)) : labels.unrated;
  item.append(element("span", "player__quintile", quintile));
  return item;
}

function renderPlayers() {
  renderQueued = false;
  if (!playersList || !labels) return;
  const query = playerSearch ? fold(playerSearch.value.trim()) : "";
  const all = [...players.values()];
  const matching = (query ? all.filter((p) => fold(p.name).includes(query)) : all).sort(comparePlayers);
  const items = matching.slice(0, SHOWN).map(playerItem);
  if (items.length === 0) items.push(element("li", "players__empty", query ? labels.no_match : labels.nobody));
  if (matching.length > SHOWN) {
    items.push(element("li", "players__more", labels.more.replace("%(n)s", String(matching.length - SHOWN))));
  }
  playersList.replaceChildren(...items);
  if (playerCount) playerCount.textContent = String(players.size);
  if (playerSummary) {
    const counts = STATUS_ORDER.map((status) => [status, all.filter((p) => p.status === status).length]);
    playerSummary.textContent = counts
      .filter(([, n]) => n > 0)
      .map(([status, n]) => `${labels.status[status]}: ${n}`)
      .join(" · ");
  }
}

function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  window.requestAnimationFrame(renderPlayers);
}

function applyPresence(type, payload) {
  if (type === "presence") {
    players.clear();
    for (const player of payload.players) players.set(player.id, player);
  } else {
    for (const id of payload.removed) players.delete(id);
    for (const player of [...payload.added, ...payload.changed]) players.set(player.id, player);
  }
  scheduleRender();
}

if (playerSearch) playerSearch.addEventListener("input", scheduleRender);

function chatLine(message) {
  const item = element("li", "chat__line");
  item.dataset.messageId = String(message.id);
  item.dataset.authorId = String(message.author_id);
  item.append(element("span", "chat__author", message.author));
  const time = element("time", "chat__time", clockTime(message.sent_at));
  time.dateTime = message.sent_at;
  item.append(time);
  item.append(element("span", "chat__text", message.text));
  if (!me || message.author_id !== me.id) item.append(lineActions(labels.actions, message));
  return item;
}

function appendChat(message) {
  if (!chatLog) return;
  const nearBottom = chatLog.scrollHeight - chatLog.scrollTop - chatLog.clientHeight < 40;
  chatLog.append(chatLine(message));
  while (chatLog.children.length > 200) chatLog.firstElementChild.remove();
  if (nearBottom) chatLog.scrollTop = chatLog.scrollHeight;
}

// Heartbeats every period, the first at a random moment of it: pages that connect together (every
// page, when the server restarts) would otherwise beat together for as long as they stay open.
function startHeartbeats(period) {
  stopHeartbeats();
  heartbeatTimer = setTimeout(() => {
    send("heartbeat");
    heartbeatTimer = setInterval(() => send("heartbeat"), period);
  }, Math.random() * period);
}

// The timer is first a timeout, then an interval: clear whichever it is.
function stopHeartbeats() {
  clearTimeout(heartbeatTimer);
  clearInterval(heartbeatTimer);
}

function handle(envelope) {
  const { type, payload } = envelope;
  document.dispatchEvent(new CustomEvent("amigos:envelope", { detail: envelope }));
  if (type === "welcome") {
    me = payload.user;
    retryDelay = 1000;
    setConnection("live");
    startHeartbeats(payload.heartbeat_seconds * 1000);
    // Page features (the event board, ...) subscribe once the socket is up, again after a reconnection.
    body.dataset.socketState = "live";
    document.dispatchEvent(new CustomEvent("amigos:ready"));
  } else if (type === "presence" || type === "presence.delta") {
    applyPresence(type, payload);
  } else if (type === "chat.history") {
    if (chatLog && labels) {
      chatLog.replaceChildren(...payload.messages.map(chatLine));
      chatLog.scrollTop = chatLog.scrollHeight;
    }
  } else if (type === "chat.message") {
    if (labels) appendChat(payload);
  } else if (type === "error" && payload.code === "unauthenticated") {
    // The session is gone (expired, or the server was reset): back to the sign-in page.
    signedOut = true;
    window.location.assign(`${signInUrl}?ended=signed_out`);
  } else if (type === "ack" || type === "error") {
    const callback = pending.get(payload.reply_to);
    pending.delete(payload.reply_to);
    if (callback) callback(type === "ack", payload);
  } else if (type === "signed_out") {
    signedOut = true;
    window.location.assign(`${signInUrl}?ended=${encodeURIComponent(payload.reason)}`);
  } else {
    document.dispatchEvent(new CustomEvent("amigos:message", { detail: { type, payload } }));
  }
}

// Page features send their commands through this page's one socket.
// The callback is `onReply` (the events board) or `reply` (the tables' lobby panel and table
// screen); both are honoured — a merge once kept only `onReply`, so accepting an invitation never
// led to the table. `sent` tells the sender whether the socket took the command.
document.addEventListener("amigos:send", (event) => {
  const { type, payload, onReply, reply } = event.detail;
  event.detail.sent = send(type, payload, onReply || reply);
});

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}${socketPath}`);
  socket.addEventListener("message", (event) => {
    try {
      handle(JSON.parse(event.data));
    } catch (error) {
      console.error("bad message from the server", error);
    }
  });
  socket.addEventListener("close", (event) => {
    stopHeartbeats();
    delete body.dataset.socketState;
    if (signedOut || event.code === 4401) return;
    setConnection("lost");
    // Each page waits its own share of the delay, so pages cut off together do not all come back
    // in the same instant.
    setTimeout(connect, retryDelay * (0.5 + Math.random()));
    retryDelay = Math.min(retryDelay * 2, 15000);
  });
}

if (chatForm) {
  chatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = chatInput.value;
    if (!text.trim()) return;
    const sent = send("chat.send", { text }, (ok, reply) => {
      chatFeedback.textContent = ok ? "" : reply.message;
      if (ok) chatInput.value = "";
    });
    if (!sent && labels) chatFeedback.textContent = labels.disconnected;
  });
}

// Mute and report a line of the lobby's chat (chat_actions.js); reports go to the moderation desk.
if (chatLog && labels) {
  chatActions({
    labels: labels.actions,
    log: chatLog,
    roots: [chatLog],
    feedback: chatFeedback,
    send,
    reportPayload: (button) => ({ player_id: Number(button.dataset.playerId), lobby_line_id: Number(button.dataset.report) }),
  });
}

if (socketPath) connect();
