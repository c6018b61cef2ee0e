// Keeps an event page current on every phone without polling. The page's socket (app.js) asks to
// watch the event ("events.watch"); after each change the server sends "event.changed" and this
// script fetches the page again and swaps in its live part. The fetch is marked as a background
// refresh, so it does not count as the player's action: an idle player is still signed out.
const root = document.querySelector("[data-live-event]");
const BACKGROUND = { "X-Amigos-Background": "1" };

function busy() {
  const active = document.activeElement;
  if (!active || !root || !root.contains(active)) return false;
  const tag = active.tagName;
  return (tag === "INPUT" && active.type !== "radio" && active.type !== "checkbox" && active.value !== "")
    || tag === "TEXTAREA" || tag === "SELECT";
}

// Once the person submits a form or leaves, a late answer must not replace the new page.
let leaving = false;
window.addEventListener("submit", () => { leaving = true; });
window.addEventListener("pagehide", () => { leaving = true; });

let seen = root ? root.dataset.version : null;
let fetching = false;
let again = false;

async function refresh() {
  if (!root || leaving) return;
  if (fetching) { again = true; return; }
  if (busy()) {
    // Wait until the person leaves the field they are typing in.
    document.activeElement.addEventListener("blur", () => refresh(), { once: true });
    return;
  }
  fetching = true;
  try {
    const response = await fetch(window.location.href, { credentials: "same-origin", headers: BACKGROUND });
    if (response.redirected || !response.ok) {
      // Signed out, or the event is gone for this player: show what the server says.
      if (!leaving) window.location.reload();
      return;
    }
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.querySelector("[data-live-event]");
    if (!fresh || leaving || busy()) return;
    const open = new Set([...root.querySelectorAll("details[open][id]")].map((node) => node.id));
    root.replaceChildren(...fresh.childNodes);
    for (const id of open) {
      const node = document.getElementById(id);
      if (node) node.open = true;
    }
    seen = fresh.dataset.version;
    root.dataset.version = seen;
    setUp();
  } catch (error) {
    // Offline for a moment: the next change, or the next reconnection, fetches again.
  } finally {
    fetching = false;
    if (again) { again = false; refresh(); }
  }
}

function watch() {
  if (!root) return;
  const eventId = Number(root.dataset.liveEvent);
  document.dispatchEvent(new CustomEvent("amigos:send", {
    detail: {
      type: "events.watch",
      payload: { event_id: eventId },
      // After a reconnection, anything changed while the socket was down is fetched now.
      onReply: (ok, reply) => { if (ok && String(reply.version) !== seen) refresh(); },
    },
  }));
}

if (root) {
  document.addEventListener("amigos:ready", watch);
  if (document.body.dataset.socketState === "live") watch();
  document.addEventListener("amigos:message", (event) => {
    const { type, payload } = event.detail;
    if (type === "event.changed" && String(payload.event) === root.dataset.liveEvent
        && String(payload.version) !== seen) {
      refresh();
    } else if (type === "resync") {
      // The server's bus lost messages: a change may have gone by; the watch's ack tells.
      watch();
    }
  });
}

// A hand's points are only asked for when the hand can carry points.
function setUp() {
  for (const form of document.querySelectorAll("[data-hand-form]")) {
    const points = form.querySelector("[data-points]");
    const update = () => {
      const end = form.querySelector("input[name=end]:checked");
      if (points) points.hidden = end !== null && end.value === "tied-block";
    };
    form.addEventListener("change", update);
    update();
  }
}
setUp();
