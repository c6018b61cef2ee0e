// One clock (amigos.web.accounts.clock): the server shows every time in the player's zone and
// names it in <meta name="time-zone">. This file tells the server the browser's own zone when the
// player signs up or signs in (the account keeps it if it has none), offers it on the settings
// page, and formats times for the scripts that draw them (the live chat) in the page's zone, in the
// same "HH:MM" the pages use.

/** The browser's IANA zone ("America/Havana"), or "" when the browser cannot tell. */
export function browserZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    return "";
  }
}

/** The zone the server shows times in (the player's), or the browser's when the page names none. */
export function pageZone() {
  const named = document.querySelector('meta[name="time-zone"]');
  return (named && named.content) || browserZone() || undefined;
}

/** "HH:MM" (24 hours) of an ISO moment in the page's zone: the pages' `time:"H:i"`. */
export function clockTime(iso) {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return "";
  const options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  let parts;
  try {
    parts = new Intl.DateTimeFormat("en-GB", { ...options, timeZone: pageZone() }).formatToParts(moment);
  } catch {
    parts = new Intl.DateTimeFormat("en-GB", options).formatToParts(moment);
  }
  const part = (type) => (parts.find((p) => p.type === type) || { value: "" }).value;
  return `${part("hour")}:${part("minute")}`;
}

/** A day and a time of an ISO moment in the page's zone, as the pages write them: Spanish
 * "28/11/2026 09:20", English "28 Nov 2026, 09:20" (amigos.web.formats). */
export function dateTime(iso) {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return "";
  const english = document.documentElement.lang === "en";
  const options = english
    ? { day: "numeric", month: "short", year: "numeric" }
    : { day: "2-digit", month: "2-digit", year: "numeric" };
  let day;
  try {
    day = new Intl.DateTimeFormat(english ? "en-GB" : "es-ES", { ...options, timeZone: pageZone() }).format(moment);
  } catch {
    day = new Intl.DateTimeFormat(english ? "en-GB" : "es-ES", options).format(moment);
  }
  return english ? `${day}, ${clockTime(iso)}` : `${day} ${clockTime(iso)}`;
}

const zone = browserZone();
for (const input of document.querySelectorAll("input[data-browser-time-zone]")) input.value = zone;

const hint = document.querySelector("[data-browser-zone-hint]");
const select = document.querySelector("select[name=time_zone]");
if (hint && select && zone && [...select.options].some((option) => option.value === zone)) {
  const button = hint.querySelector("[data-use-browser-zone]");
  button.textContent = zone.replaceAll("_", " ");
  button.addEventListener("click", () => {
    select.value = zone;
    select.focus();
  });
  hint.hidden = false;
}
