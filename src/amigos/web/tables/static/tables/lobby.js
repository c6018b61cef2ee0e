// The meeting room's tables panel: the live list of tables to watch and this player's invitations
// (30 seconds to accept or refuse a live table; days for a correspondence game). It shares the page's
// socket through amigos/app.js's events.

import { dateTime } from "../amigos/clock.js";

const labels = JSON.parse(document.getElementById("tables-labels").textContent);
const list = document.getElementById("live-tables");
const dialog = document.getElementById("invite-dialog");
const inviteText = document.getElementById("invite-text");
const inviteClock = document.getElementById("invite-clock");
const announcer = document.getElementById("tables-announcer");
const tableUrl = (id) => labels.table_url.replace(/0\/$/, `${id}/`);

let current = null; // the invitation on screen
// Above this, an invitation shows its deadline instead of a countdown.
const LONG_INVITATION_MS = 10 * 60 * 1000;
let countdown = null;
let subscribed = false;

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

// The list changes about once a second while tables play (a score, a status). It is brought up to
// date in place: a table's item and its link stay the same elements from one update to the next,
// and only what changed is touched. Rebuilt whole, the link under a player's pointer was replaced
// between the press and the release of a click, and the click was lost.
function renderTables(tables) {
  const known = new Map();
  for (const node of list.querySelectorAll("li.live-table")) known.set(node.dataset.tableId, node);
  const items = tables.map((entry) => tableItem(entry, known.get(String(entry.table_id))));
  if (items.length === 0) {
    items.push(list.querySelector("li.live-tables__empty") || element("li", "live-tables__empty", labels.nobody_plays));
  }
  items.forEach((item, index) => {
    if (list.children[index] !== item) list.insertBefore(item, list.children[index] || null);
  });
  while (list.children.length > items.length) list.lastElementChild.remove();
}

function tableItem(entry, found) {
  const item = found || element("li", "live-table");
  item.dataset.tableId = String(entry.table_id);
  let link = item.querySelector("a");
  if (!link) {
    link = element("a");
    item.prepend(link);
  }
  const href = tableUrl(entry.table_id);
  if (link.getAttribute("href") !== href) link.href = href;
  if (link.textContent !== entry.name) link.textContent = entry.name;
  const label = format(labels.watch, { name: entry.name });
  if (link.getAttribute("aria-label") !== label) link.setAttribute("aria-label", label);
  // The details after the link, as [class, text]: new spans only when one of them changed.
  const details = [
    ["live-table__variant", labels.variants[entry.variant] || entry.variant],
    ["live-table__players", entry.seats.map((seat) => seat.name).join(", ")],
    ["live-table__status", labels[entry.status] || entry.status],
  ];
  if (entry.score) details.push(["live-table__score", entry.score.join(" – ")]);
  const shown = [...item.children].filter((node) => node !== link);
  const same =
    shown.length === details.length &&
    shown.every((node, index) => node.className === details[index][0] && node.textContent === details[index][1]);
  if (!same) {
    shown.forEach((node) => node.remove());
    item.append(...details.map(([className, text]) => element("span", className, text)));
  }
  return item;
}

function showInvitation(invitation) {
  current = invitation;
  inviteText.textContent = format(labels.invitation, {
    organizer: invitation.organizer.name,
    name: invitation.name,
    game: labels.variants[invitation.variant] || invitation.variant,
    position: labels.positions[invitation.position] || invitation.position,
  });
  // Time left from the server's own clock readings (deadline - now), counted on ours.
  const serverNow = invitation.now ? Date.parse(invitation.now) : Date.now();
  const end = performance.now() + Math.max(0, Date.parse(invitation.deadline) - serverNow);
  clearInterval(countdown);
  // A live table's invitation counts its seconds; a correspondence game's (days) says until when,
  // in the player's own time zone (counting 86,399 seconds down helps nobody).
  const long = end - performance.now() > LONG_INVITATION_MS;
  const tick = () => {
    const left = Math.max(0, Math.ceil((end - performance.now()) / 1000));
    inviteClock.textContent = long
      ? format(labels.answer_by, { when: dateTime(invitation.deadline) })
      : format(labels.seconds_left, { seconds: left });
    if (left === 0) closeInvitation();
  };
  tick();
  countdown = setInterval(tick, long ? 60_000 : 250);
  dialog.returnValue = "";
  if (!dialog.open) dialog.showModal();
  announcer.textContent = inviteText.textContent;
}

function closeInvitation() {
  clearInterval(countdown);
  current = null;
  if (dialog.open) dialog.close("closed");
}

dialog.addEventListener("close", () => {
  const invitation = current;
  clearInterval(countdown);
  current = null;
  if (!invitation) return;
  if (dialog.returnValue === "accept") {
    send("table.invite.accept", { table_id: invitation.table_id }, (ok, reply) => {
      if (ok) window.location.assign(tableUrl(invitation.table_id));
      else announcer.textContent = labels.errors[reply.code] || labels.errors.bad_payload;
    });
  } else {
    send("table.invite.refuse", { table_id: invitation.table_id });
  }
});

// After a `resync`, pages ask again within this many milliseconds, each at its own moment.
const RESYNC_SPREAD_MS = 2000;

// Follow the list and my invitations (again after every reconnection: the server forgets).
function subscribe() {
  subscribed = send("tables.subscribe", {}, (ok, reply) => {
    if (!ok) return;
    renderTables(reply.tables || []);
    const invitations = reply.invitations || [];
    // An invitation closed while its notice was lost (a `resync`) is no longer on the list.
    if (current && !invitations.some((i) => i.table_id === current.table_id)) closeInvitation();
    const open = invitations[0];
    if (open) showInvitation(open);
  });
}

document.addEventListener("amigos:envelope", (event) => {
  const { type, payload } = event.detail;
  if (type === "welcome") {
    subscribe();
  } else if (type === "resync") {
    // The server's bus lost messages (an invitation, say): ask again, each page after its own
    // random pause so that every lobby page does not ask in the same instant.
    window.setTimeout(subscribe, Math.random() * RESYNC_SPREAD_MS);
  } else if (type === "tables.list") {
    renderTables(payload.tables || []);
  } else if (type === "table.invited") {
    showInvitation(payload);
  } else if (type === "table.invitation_closed") {
    if (current && current.table_id === payload.table_id) {
      closeInvitation();
      announcer.textContent = format(labels.invitation_closed, { name: payload.name || "" });
    }
  }
});

if (!subscribed && document.body.dataset.socketState === "live") subscribe();
