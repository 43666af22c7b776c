// A wide table that has to scroll sideways says so (progressive enhancement).
//
// Every generated table sits in a scroller of its own (sitebuild/html_table.py: role="region",
// named, tabindex="0"), followed by a hidden hint in the page's language. On a phone the tables
// become cards and fit (docs/assets/site.css); where one still does not fit (a browser without
// container queries, a very narrow screen, a long word), this shows the hint under it and keeps
// the scroller reachable by keyboard. A scroller that fits is no stop for the Tab key.
// Without this script the scroller keeps its tabindex, its edge shadows and no hint.
(() => {
  "use strict";

  function check(scroller) {
    const overflowing = scroller.scrollWidth > scroller.clientWidth + 1;
    scroller.toggleAttribute("data-overflowing", overflowing);
    if (overflowing) scroller.setAttribute("tabindex", "0");
    else scroller.removeAttribute("tabindex");
    const hint = scroller.nextElementSibling;
    if (hint && hint.classList.contains("scroll-hint")) hint.hidden = !overflowing;
  }

  function init() {
    const scrollers = document.querySelectorAll("[data-scroller]");
    if (scrollers.length === 0) return;
    if (typeof ResizeObserver !== "function") {
      scrollers.forEach(check);
      return;
    }
    // The scroller's own size and its table's: either changes whether it overflows.
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) check(entry.target.closest("[data-scroller]") || entry.target);
    });
    for (const scroller of scrollers) {
      observer.observe(scroller);
      if (scroller.firstElementChild) observer.observe(scroller.firstElementChild);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
