// While a review is being computed, look again every two seconds (the page says how far it got).
const busy = document.querySelector("[data-review-busy]");
if (busy) {
  window.setTimeout(() => window.location.reload(), 2000);
}
