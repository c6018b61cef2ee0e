// Amigos por el Dominó: the live part of every signed-in page.
// One WebSocket per page (presence by heartbeat, idle sign-out) and, in the meeting room, the live
// online list and chat. Text from other players is only ever inserted with textContent.

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
const reportDialog = document.getElementById("report-dialog");
const reportQuote = document.getElementById("report-quote");
const reportComment = document.getElementById("report-comment");

let socket = null;
let me = null;
let heartbeatTimer = null;
let nextId = 1;
let retryDelay = 1000;
let signedOut = false;
let reportTarget = null;
const pending = new Map();

function setConnection(state) {
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

function renderPlayers(players) {
  if (!playersList) return;
  const items = players.map((player) => {
    const item = element("li", "player");
    item.dataset.userId = String(player.id);
    item.append(element("span", "player__name", player.name));
    const status = element("span", `status status--${player.status}`, labels.status[player.status] || player.status);
    item.append(status);
    const quintile = player.quintile ? labels.quintile.replace("%(q)s", String(player.quintile)) : labels.unrated;
    item.append(element("span", "player__quintile", quintile));
    return item;
  });
  if (items.length === 0) items.push(element("li", "players__empty", labels.nobody));
  playersList.replaceChildren(...items);
  if (playerCount) playerCount.textContent = String(players.length);
}

function chatLine(message) {
  const item = element("li", "chat__line");
  item.dataset.messageId = String(message.id);
  item.dataset.authorId = String(message.author_id);
  item.append(element("span", "chat__author", message.author));
  const time = element("time", "chat__time", new Date(message.sent_at).toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" }));
  time.dateTime = message.sent_at;
  item.append(time);
  item.append(element("span", "chat__text", message.text));
  if (!me || message.author_id !== me.id) {
    const button = element("button", "chat__report", labels.report);
    button.type = "button";
    button.dataset.report = String(message.id);
    item.append(button);
  }
  return item;
}

function appendChat(message) {
  if (!chatLog) return;
  const nearBottom = chatLog.scrollHeight - chatLog.scrollTop - chatLog.clientHeight < 40;
  chatLog.append(chatLine(message));
  while (chatLog.children.length > 200) chatLog.firstElementChild.remove();
  if (nearBottom) chatLog.scrollTop = chatLog.scrollHeight;
}

function handle(envelope) {
  const { type, payload } = envelope;
  if (type === "welcome") {
    me = payload.user;
    retryDelay = 1000;
    setConnection("live");
    clearInterval(heartbeatTimer);
    heartbeatTimer = setInterval(() => send("heartbeat"), payload.heartbeat_seconds * 1000);
  } else if (type === "presence") {
    if (labels) renderPlayers(payload.players);
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
  }
}

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
    clearInterval(heartbeatTimer);
    if (signedOut || event.code === 4401) return;
    setConnection("lost");
    setTimeout(connect, retryDelay);
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

if (chatLog && reportDialog) {
  chatLog.addEventListener("click", (event) => {
    const button = event.target.closest("[data-report]");
    if (!button) return;
    reportTarget = Number(button.dataset.report);
    const line = button.closest(".chat__line");
    reportQuote.textContent = line ? line.querySelector(".chat__text").textContent : "";
    reportComment.value = "";
    reportDialog.showModal();
  });
  reportDialog.addEventListener("close", () => {
    if (reportDialog.returnValue !== "report" || reportTarget === null) return;
    const target = reportTarget;
    reportTarget = null;
    send("chat.report", { message_id: target, comment: reportComment.value }, (ok, reply) => {
      chatFeedback.textContent = ok ? labels.reported : reply.message;
    });
  });
}

if (socketPath) connect();
