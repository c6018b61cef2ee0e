// The replay page: keyboard steps, autoplay, and the Academy's values fetched from a job.
// Every position is its own page (its URL is the shareable link), so stepping is following links;
// without this script the links still work.

const AUTOPLAY_KEY = "amigos-replay-autoplay";
const AUTOPLAY_DELAY_MS = 1200;
const POLL_MS = 700;

function step(name) {
  const link = document.querySelector(`[data-step="${name}"]`);
  if (link) window.location.assign(link.href);
  return Boolean(link);
}

document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, textarea, select")) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const keys = { ArrowRight: "forward", ArrowLeft: "back", Home: "start", End: "end" };
  if (keys[event.key] && step(keys[event.key])) event.preventDefault();
});

const autoplay = document.querySelector("[data-autoplay]");
if (autoplay) {
  autoplay.hidden = false;
  let on = window.sessionStorage.getItem(AUTOPLAY_KEY) === "1";
  let timer = 0;
  const schedule = () => {
    window.clearTimeout(timer);
    if (!on) return;
    timer = window.setTimeout(() => {
      if (!step("forward")) {
        on = false;
        window.sessionStorage.removeItem(AUTOPLAY_KEY);
        render();
      }
    }, AUTOPLAY_DELAY_MS);
  };
  const render = () => autoplay.setAttribute("aria-pressed", on ? "true" : "false");
  autoplay.addEventListener("click", () => {
    on = !on;
    if (on) window.sessionStorage.setItem(AUTOPLAY_KEY, "1");
    else window.sessionStorage.removeItem(AUTOPLAY_KEY);
    render();
    schedule();
  });
  render();
  schedule();
}

function cell(row, text, header = false) {
  const el = document.createElement(header ? "th" : "td");
  if (header) el.scope = "col";
  el.textContent = text;
  row.append(el);
  return el;
}

function showValues(panel, result) {
  const words = panel.dataset;
  const out = panel.querySelector("[data-academy-result]");
  out.replaceChildren();
  const note = document.createElement("p");
  if (result.exact) note.textContent = words.wordExact;
  else if (result.limited)
    note.textContent = words.wordLimited.replace("{depth}", String(result.depth));
  else note.textContent = words.wordEstimate;
  note.className = "academy__kind";
  out.append(note);
  if (result.played !== null && result.played_cost !== null) {
    const played = document.createElement("p");
    played.className = "academy__played";
    played.textContent = `${words.wordPlayedCost}: ${result.played_said ?? result.played} → ${result.played_cost}`;
    out.append(played);
  }
  const table = document.createElement("table");
  table.className = "grid academy__values";
  const caption = document.createElement("caption");
  caption.textContent = words.wordCaption;
  table.append(caption);
  const head = table.createTHead().insertRow();
  cell(head, words.wordPlay, true);
  cell(head, words.wordValue, true);
  cell(head, words.wordCost, true);
  const body = table.createTBody();
  for (const play of result.plays) {
    const row = body.insertRow();
    let label = play.said ?? play.move;
    if (play.cost === 0) label += ` (${words.wordBest})`;
    if (play.move === result.played) label += ` · ${words.wordPlayed}`;
    cell(row, label);
    cell(row, String(Math.round(play.value * 100) / 100));
    cell(row, String(Math.round(play.cost * 100) / 100));
  }
  out.append(table);
}

const panel = document.querySelector("[data-academy]");
const form = panel?.querySelector("[data-values-form]");
if (panel && form) {
  const state = panel.querySelector("[data-academy-state]");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button");
    button.disabled = true;
    state.textContent = panel.dataset.wordCalculating;
    panel.setAttribute("aria-busy", "true");
    try {
      const token = form.querySelector("[name=csrfmiddlewaretoken]").value;
      const started = await fetch(form.action, {
        method: "POST",
        headers: { "X-CSRFToken": token },
        credentials: "same-origin",
      });
      if (started.status === 429 || started.status === 503) {
        // Refused: the player already has a calculation running, or the queue is full.
        const refused = await started.json();
        throw new Error(refused.error);
      }
      if (!started.ok) throw new Error(String(started.status));
      const job = await started.json();
      for (;;) {
        const polled = await fetch(job.url, { credentials: "same-origin" });
        if (!polled.ok) throw new Error(String(polled.status));
        const status = await polled.json();
        if (status.status === "done") {
          state.textContent = "";
          showValues(panel, status.result);
          break;
        }
        if (status.status === "failed") throw new Error("failed");
        state.textContent =
          status.ahead > 0
            ? panel.dataset.wordAhead.replace("{ahead}", String(status.ahead))
            : panel.dataset.wordCalculating;
        await new Promise((resolve) => window.setTimeout(resolve, POLL_MS));
      }
    } catch (error) {
      const words = { "job-running": "wordJobRunning", "queue-full": "wordQueueFull" };
      state.textContent = panel.dataset[words[error.message] ?? "wordFailed"];
    } finally {
      button.disabled = false;
      panel.removeAttribute("aria-busy");
    }
  });
}
