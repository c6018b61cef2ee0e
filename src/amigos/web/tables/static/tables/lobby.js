// The meeting room's tables panel: the live list of tables to watch and this player's invitations
// (30 seconds to accept or refuse). It shares the page's socket through amigos/app.js's events.

const labels = JSON.parse(document.getElementById("tables-labels").textContent);
const list = document.getElementById("live-tables");
const dialog = document.getElementById("invite-dialog");
const inviteText = document.getElementById("invite-text");
const inviteClock = document.getElementById("invite-clock");
const announcer = document.getElementById("tables-announcer");
const tableUrl = (id) => labels.table_url.replace(/0\/$/, `${id}/`);

let current = null; // the invitation on screen
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

function renderTables(tables) {
  const items = tables.map((entry) => {
    const item = element("li", "live-table");
    item.dataset.tableId = String(entry.table_id);
    const link = element("a", null, entry.name);
    link.href = tableUrl(entry.table_id);
    link.setAttribute("aria-label", format(labels.watch, { name: entry.name }));
    item.append(link);
    item.append(element("span", "live-table__variant", labels.variants[entry.variant] || entry.variant));
    item.append(element("span", "live-table__players", entry.seats.map((seat) => seat.name).join(", ")));
    item.append(element("span", "live-table__status", labels[entry.status] || entry.status));
    if (entry.score) item.append(element("span", "live-table__score", entry.score.join(" – ")));
    return item;
  });
  if (items.length === 0) items.push(element("li", "live-tables__empty", labels.nobody_plays));
  list.replaceChildren(...items);
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
  const tick = () => {
    const left = Math.max(0, Math.ceil((end - performance.now()) / 1000));
    inviteClock.textContent = format(labels.seconds_left, { seconds: left });
    if (left === 0) closeInvitation();
  };
  tick();
  countdown = setInterval(tick, 250);
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

// Follow the list and my invitations (again after every reconnection: the server forgets).
function subscribe() {
  subscribed = send("tables.subscribe", {}, (ok, reply) => {
    if (!ok) return;
    renderTables(reply.tables || []);
    const open = (reply.invitations || [])[0];
    if (open) showInvitation(open);
  });
}

document.addEventListener("amigos:envelope", (event) => {
  const { type, payload } = event.detail;
  if (type === "welcome") {
    subscribe();
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
