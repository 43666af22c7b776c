// Explanations in place: a figure opens how it is computed and where its inputs come
// from; a glossary term opens its short explanation. Mouse, touch and keyboard alike:
// click or tap, or Enter/Space on the focused element; Escape or a click elsewhere closes.
//
// The data is in the page (<script id="fig-provenance">, written at build time by
// sitebuild/provenance.py); nothing is fetched and Pyodide is not needed. Without this
// script a figure is a plain link to its row on the sources page, and a term keeps its
// title attribute. Written by hand rather than with a popover library: it is small,
// it must not add a request, and the page weight target leaves no room for one.
(() => {
  "use strict";
  let data = null;
  let open = null; // {trigger, box}

  /** data[key] if it is data's own entry (never something reached through a prototype), else null. */
  function own(record, key) {
    return record && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : null;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value !== undefined && value !== null) node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function inputItem(ref) {
    const input = own(data.src, ref); // each catalog entry once per page, named by its reference
    if (!input) return null;
    const title = input.url ? el("a", { href: input.url, rel: "noopener" }, input.title) : input.title;
    // An entry without a name of its own (a platform, an efficiency) is named by its source's title.
    const head = input.name ? [el("strong", null, input.name), " — ", title] : [el("strong", null, title)];
    // The reader's own config.json has no access date or confidence: only what it has is said.
    const details = [input.accessed ? `, ${data.ui.accessed} ${input.accessed}` : "",
      input.confidence ? `; ${data.ui.confidence}: ${input.confidence}` : ""].join("");
    return el("li", null, ...head, details);
  }

  function termItem(term) {
    const row = el("li", null, el("strong", null, term.value), " — ", term.words);
    if (term.expression) {
      // one level down: the term's own formula with its values, folded so the box stays short
      row.append(el("details", { class: "explain-more" }, el("summary", null, data.ui.formula), el("span", { class: "explain-expr" }, term.expression)));
    }
    if (term.inputs && term.inputs.length) row.append(el("ul", null, ...term.inputs.map(inputItem)));
    else if (term.assumption) row.append(" (", term.assumption, ")");
    return row;
  }

  function figureBox(id, fig) {
    const box = el("div", { class: "explain-box", role: "dialog", "aria-label": `${fig.value}: ${data.ui.formula}`, tabindex: "-1" });
    box.append(el("p", { class: "explain-value" }, el("strong", null, fig.value), " — ", fig.words));
    if (fig.expression) box.append(el("p", { class: "explain-expr" }, fig.expression));
    if (fig.inputs.length || (fig.terms && fig.terms.length) || fig.assumption) {
      box.append(el("p", { class: "explain-head" }, data.ui.inputs));
      const list = el("ul");
      for (const term of fig.terms || []) list.append(termItem(term));
      for (const item of fig.inputs.map(inputItem)) if (item) list.append(item);
      if (fig.assumption) list.append(el("li", null, fig.assumption));
      box.append(list);
    }
    const links = el("p", { class: "explain-links" });
    if (fig.calculator) {
      links.append(el("a", { href: `${data.urls.calculators}?${fig.calculator}`, class: "explain-calc" }, data.ui.calculator), " · ");
    }
    links.append(el("a", { href: `${data.urls.sources}#fig-${id}` }, data.ui.row));
    box.append(links);
    return box;
  }

  function termBox(trigger) {
    const text = trigger.dataset.explain;
    return el("div", { class: "explain-box explain-term", role: "dialog", "aria-label": trigger.textContent, tabindex: "-1" },
      el("p", null, el("strong", null, trigger.textContent), " — ", text));
  }

  function close(returnFocus) {
    if (!open) return;
    open.box.remove();
    open.trigger.setAttribute("aria-expanded", "false");
    if (returnFocus) open.trigger.focus();
    open = null;
  }

  /**
   * Below the trigger, or above it where there is more room; never past the screen's edges: a
   * box taller than the room it gets scrolls inside itself (a phone's screen is short).
   */
  function place(box, trigger) {
    const r = trigger.getBoundingClientRect();
    const viewWidth = document.documentElement.clientWidth;
    const viewHeight = window.innerHeight;
    const width = Math.min(420, viewWidth - 16);
    box.style.width = `${width}px`;
    const left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + viewWidth - width - 8));
    box.style.left = `${left}px`;
    const gap = 6;
    const margin = 8;
    const below = viewHeight - r.bottom - gap - margin;
    const above = r.top - gap - margin;
    box.style.maxHeight = "none";
    const natural = box.offsetHeight;
    const under = natural <= below || below >= above;
    const room = Math.max(under ? below : above, 0);
    const height = Math.min(natural, room, viewHeight * 0.7);
    box.style.maxHeight = `${Math.floor(height)}px`;
    box.style.top = `${under ? r.bottom + window.scrollY + gap : r.top + window.scrollY - gap - height}px`;
  }

  function show(trigger, byKeyboard) {
    const same = open && open.trigger === trigger;
    close(false);
    if (same) return;
    const box = trigger.classList.contains("fig")
      ? figureBox(trigger.dataset.fig, own(data.figs, trigger.dataset.fig))
      : termBox(trigger);
    box.id = "explain-box";
    document.body.append(box);
    place(box, trigger);
    trigger.setAttribute("aria-expanded", "true");
    trigger.setAttribute("aria-controls", box.id);
    open = { trigger, box };
    if (byKeyboard) box.focus();
  }

  function activate(event) {
    const trigger = event.target.closest("a.fig[data-fig], abbr.term[data-explain]");
    if (!trigger) {
      if (open && !open.box.contains(event.target)) close(false);
      return;
    }
    if (trigger.classList.contains("fig") && !(data && own(data.figs, trigger.dataset.fig))) return; // plain link
    event.preventDefault();
    show(trigger, event.detail === 0);
  }

  function key(event) {
    if (event.key === "Escape" && open) {
      close(true);
      return;
    }
    const trigger = event.target.closest && event.target.closest("a.fig[data-fig], abbr.term[data-explain]");
    if (trigger && (event.key === " " || (event.key === "Enter" && trigger.tagName === "ABBR"))) {
      event.preventDefault();
      show(trigger, true);
    }
  }

  /** Figures that can open an explanation say so (again after the running example re-rendered a sentence). */
  function mark() {
    for (const fig of document.querySelectorAll("a.fig[data-fig]:not([aria-haspopup])")) {
      if (!own(data.figs, fig.dataset.fig)) continue;
      fig.setAttribute("aria-haspopup", "dialog");
      fig.setAttribute("aria-expanded", "false");
      if (data.ui.explain) fig.setAttribute("title", data.ui.explain);
    }
  }

  /**
   * The running example changed (docs/assets/calculators.js): its figures' explanations, computed for the
   * reader's example by the same Python, replace the page's; the rest stay. Own entries only, as always.
   */
  function replaced(event) {
    const detail = event.detail || {};
    close(false);
    for (const part of ["figs", "src"]) {
      const update = detail[part];
      if (!update || typeof update !== "object") continue;
      const target = Object.assign(Object.create(null), data[part]);
      for (const key of Object.keys(update)) {
        if (key !== "__proto__" && key !== "constructor" && key !== "prototype") target[key] = update[key];
      }
      data[part] = target;
    }
    mark();
  }

  function init() {
    const script = document.getElementById("fig-provenance");
    data = script ? JSON.parse(script.textContent) : { figs: {}, src: {}, ui: {}, urls: {} };
    mark();
    document.addEventListener("fig-provenance", replaced);
    for (const term of document.querySelectorAll("abbr.term[title]")) {
      // The popover replaces the native tooltip, which touch screens never show.
      term.dataset.explain = term.getAttribute("title");
      term.removeAttribute("title");
      term.setAttribute("role", "button");
      term.setAttribute("aria-haspopup", "dialog");
      term.setAttribute("aria-expanded", "false");
    }
    document.addEventListener("click", activate);
    document.addEventListener("keydown", key);
    window.addEventListener("resize", () => close(false));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
