// Keeps an event page current on every phone: asks the server for the event's version every few
// seconds and reloads the page when something changed, unless the person is typing in a field.
const root = document.querySelector("[data-poll-url]");

function busy() {
  const active = document.activeElement;
  if (!active) return false;
  const tag = active.tagName;
  return (tag === "INPUT" && active.type !== "radio" && active.type !== "checkbox" && active.value !== "")
    || tag === "TEXTAREA" || tag === "SELECT";
}

// Once the person submits a form or leaves, a late answer must not reload the old page on top of
// the new one.
let leaving = false;
window.addEventListener("submit", () => { leaving = true; });
window.addEventListener("pagehide", () => { leaving = true; });
window.addEventListener("beforeunload", () => { leaving = true; });

if (root) {
  const url = root.dataset.pollUrl;
  const every = 1000 * Number(root.dataset.pollSeconds || "3");
  const seen = root.dataset.version;
  const tick = async () => {
    if (leaving) return;
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (response.ok) {
        const data = await response.json();
        if (String(data.version) !== seen && !busy() && !leaving) {
          window.location.reload();
          return;
        }
      }
    } catch (error) {
      // Offline for a moment: try again at the next tick.
    }
    window.setTimeout(tick, every);
  };
  window.setTimeout(tick, every);
}

// A hand's points are only asked for when the hand can carry points.
for (const form of document.querySelectorAll("[data-hand-form]")) {
  const points = form.querySelector("[data-points]");
  const update = () => {
    const end = form.querySelector("input[name=end]:checked");
    if (points) points.hidden = end !== null && end.value === "tied_block";
  };
  form.addEventListener("change", update);
  update();
}
