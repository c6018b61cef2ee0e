// The site menu is a <details> disclosure that works with no script at all. This file only adds
// what a disclosure lacks for keyboard and pointer users on a phone: Escape closes the open menu
// and puts focus back on its toggle, and a tap or focus outside the menu closes it.
const menu = document.querySelector("details[data-menu]");

if (menu) {
  const toggle = menu.querySelector("summary");
  const close = (returnFocus) => {
    if (!menu.open) return;
    menu.open = false;
    if (returnFocus && toggle) toggle.focus();
  };
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open && menu.contains(document.activeElement)) close(true);
  });
  document.addEventListener("click", (event) => {
    if (!menu.contains(event.target)) close(false);
  });
  document.addEventListener("focusin", (event) => {
    if (!menu.contains(event.target)) close(false);
  });
}
