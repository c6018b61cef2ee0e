// On a narrow screen the table page is tabs (issue 38: the score sheet, the fair-deal box and the
// chat sat below the felt, out of sight and a scroll away): one panel at a time takes the felt's
// place, so nothing needs a page scroll and every panel is one tap (or one arrow key) from the game.
// From the width where the side column fits beside the felt, the tabs are hidden and every panel
// shows; the panels then lose their tab roles, so a screen reader hears plain sections.
//
// The tabs follow the WAI-ARIA tabs pattern: one tab in the Tab order (the selected one), the arrow
// keys, Home and End move between tabs and show the tab reached.

const NARROW = window.matchMedia("(max-width: 59.99rem)");

export function setupTabs(root, onShow) {
  const list = root.querySelector("[role=tablist]");
  if (!list) return { attention() {}, selected: () => "felt" };
  const tabs = [...list.querySelectorAll("[role=tab]")];
  const panelOf = (tab) => document.getElementById(tab.getAttribute("aria-controls"));
  let current = tabs[0];

  function apply() {
    const narrow = NARROW.matches;
    root.dataset.tabs = narrow ? "on" : "off";
    for (const tab of tabs) {
      const chosen = tab === current;
      tab.setAttribute("aria-selected", String(chosen));
      tab.tabIndex = chosen ? 0 : -1;
      const panel = panelOf(tab);
      if (narrow) {
        panel.setAttribute("role", "tabpanel");
        panel.dataset.shown = String(chosen);
      } else {
        if (panel.getAttribute("role") === "tabpanel") panel.removeAttribute("role");
        panel.dataset.shown = "true";
      }
    }
  }

  function show(tab, focus) {
    current = tab;
    tab.removeAttribute("data-attention");
    const note = tab.querySelector(".table-tab__note");
    if (note) note.textContent = "";
    apply();
    if (focus) tab.focus();
    onShow(tab.dataset.tab);
  }

  list.addEventListener("click", (event) => {
    const tab = event.target.closest("[role=tab]");
    if (tab) show(tab, false);
  });
  list.addEventListener("keydown", (event) => {
    const at = tabs.indexOf(document.activeElement);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(tabs[(to + tabs.length) % tabs.length], true);
  });
  NARROW.addEventListener("change", () => {
    apply();
    onShow(current.dataset.tab);
  });
  apply();

  return {
    // Something new on a panel the player is not looking at (a chat line, the player's turn): its
    // tab says so, in words for a screen reader, until it is shown.
    attention(name, text) {
      const tab = tabs.find((each) => each.dataset.tab === name);
      if (!tab || !NARROW.matches || tab === current) return;
      tab.dataset.attention = "true";
      const note = tab.querySelector(".table-tab__note");
      if (note) note.textContent = text;
    },
    selected: () => current.dataset.tab,
  };
}
