// Mute and report, the same on the lobby's chat and a table's chat (docs/protocol.md, moderation).
// The server filters a muted player's lines out for this player; the page removes the lines it
// already shows, lists whom the player muted (to unmute them: their lines no longer arrive) and
// sends reports through the one report dialog. Names and lines are only inserted with textContent.

function format(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, name) => (values[name] === undefined ? "" : String(values[name])));
}

function button(className, text, label) {
  const node = document.createElement("button");
  node.type = "button";
  node.className = className;
  node.textContent = text;
  if (label) node.setAttribute("aria-label", label);
  return node;
}

// The actions on another player's line (a keyboard reaches them: they are buttons).
export function lineActions(labels, line) {
  const box = document.createElement("span");
  box.className = "chat__actions";
  const mute = button("chat__action chat__mute", labels.mute, format(labels.mute_player, { name: line.author }));
  mute.dataset.mute = String(line.author_id);
  mute.dataset.name = line.author;
  const report = button("chat__action chat__report", labels.report, format(labels.report_player, { name: line.author }));
  report.dataset.report = String(line.id);
  report.dataset.playerId = String(line.author_id);
  report.dataset.name = line.author;
  box.append(mute, report);
  return box;
}

// Wires the page's chat log, its muted list and the report dialog to `send(type, payload, reply)`.
// `reportPayload(button)` names what a report concerns (a lobby line, a table line, a seat).
export function chatActions({ labels, log, roots, feedback, send, reportPayload }) {
  const dialog = document.getElementById("report-dialog");
  const list = document.getElementById("muted-list");
  const panel = document.getElementById("muted-players");
  let target = null;

  // A refusal reads as an error; a thank-you or a mute done reads as a success (data-tone).
  const say = (text, tone = "error") => {
    if (!feedback) return;
    feedback.textContent = text;
    feedback.dataset.tone = tone;
  };
  const refusal = (code) => labels.errors[code] || labels.errors.other;

  function showMuted(players) {
    panel.hidden = players.length === 0;
    list.replaceChildren(
      ...players.map((player) => {
        const item = document.createElement("li");
        const name = document.createElement("span");
        name.textContent = player.name;
        const unmute = button("button button--link", labels.unmute, format(labels.unmute_player, { name: player.name }));
        unmute.dataset.unmute = String(player.id);
        unmute.dataset.name = player.name;
        item.append(name, unmute);
        return item;
      }),
    );
  }

  function mute(id, name, on) {
    const sent = send(on ? "moderation.mute" : "moderation.unmute", { player_id: id }, (ok, reply) => {
      if (!ok) return say(refusal(reply.code));
      if (on) for (const line of log.querySelectorAll(`[data-author-id="${id}"]`)) line.remove();
      showMuted(reply.muted);
      say(format(on ? labels.muted_now : labels.unmuted_now, { name }), "ok");
    });
    if (!sent) say(refusal("offline"));
  }

  function openReport(source) {
    say(""); // the answer shown next is this report's
    target = reportPayload(source);
    const line = source.closest(".chat__line");
    const text = line ? line.querySelector(".chat__text") : null;
    document.getElementById("report-who").textContent = format(labels.report_player, { name: source.dataset.name });
    document.getElementById("report-quote").textContent = text ? text.textContent : "";
    document.getElementById("report-quote").hidden = !text;
    document.getElementById("report-comment").value = "";
    dialog.returnValue = "";
    dialog.showModal();
  }

  for (const root of roots) {
    root.addEventListener("click", (event) => {
      const muteButton = event.target.closest("[data-mute]");
      const reportButton = event.target.closest("[data-report]");
      if (muteButton) mute(Number(muteButton.dataset.mute), muteButton.dataset.name, true);
      else if (reportButton) openReport(reportButton);
    });
  }
  list.addEventListener("click", (event) => {
    const unmute = event.target.closest("[data-unmute]");
    if (unmute) mute(Number(unmute.dataset.unmute), unmute.dataset.name, false);
  });
  dialog.addEventListener("close", () => {
    if (dialog.returnValue !== "report" || target === null) return;
    const payload = { ...target, comment: document.getElementById("report-comment").value };
    target = null;
    const sent = send("moderation.report", payload, (ok, reply) => (ok ? say(labels.reported, "ok") : say(refusal(reply.code))));
    if (!sent) say(refusal("offline"));
  });
  document.addEventListener("amigos:envelope", (event) => {
    if (event.detail.type === "moderation.muted") showMuted(event.detail.payload.muted);
  });
}
