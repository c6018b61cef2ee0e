// The end of a hand and of the match, shown over the table in modal dialogs.
//
// A modal <dialog> keeps the keyboard focus inside it and tells screen readers the rest of the
// page is inert, so a player cannot miss the result below the fold (issue 38). The dialogs carry a
// copy of the score sheet, refreshed whenever the sheet is drawn.

// Opens `dialog` over the table (modal); a no-op when it is already open.
export function openResult(dialog) {
  if (dialog.open) return;
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
}

export function closeResult(dialog) {
  if (!dialog.open) return;
  if (typeof dialog.close === "function") dialog.close();
  else dialog.removeAttribute("open");
}

// Copies the score sheet drawn in `sheet` into every `[data-sheet-copy]` holder of `root`. The
// copy drops ids (they must stay unique) and is hidden from assistive technology only when empty.
export function copySheet(sheet, root) {
  for (const holder of root.querySelectorAll("[data-sheet-copy]")) {
    const copies = [...sheet.children].map((child) => {
      const copy = child.cloneNode(true);
      for (const node of [copy, ...copy.querySelectorAll("[id]")]) if (node.removeAttribute) node.removeAttribute("id");
      return copy;
    });
    holder.replaceChildren(...copies);
  }
}

// Copies the revealed tiles of the last hand (a list drawn by the hand's end) into `target`.
export function copyRevealed(source, target) {
  target.replaceChildren(...[...source.children].map((child) => child.cloneNode(true)));
}
