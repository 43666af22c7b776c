// Makes the pre-rendered calculators interactive (progressive enhancement).
//
// The page already shows every calculator's default result, rendered at build
// time by calculators.ui. This script enables the inputs and, once the reader
// touches a calculator (a field taking focus: tap, click, keyboard) or opens a
// link that carries a calculator's inputs, starts one Web Worker per page
// (docs/assets/calc-worker.js) that runs the same Python on Pyodide: reading a
// page on a phone downloads nothing for it (the runtime is about 20 MB); only a
// desktop on a fast connection starts it ahead, when idle. Every answer
// (result table, chart, messages for bad input) comes from Python, in the
// page's language; this script only moves it into the page, keeps the state in
// the URL and tells the reader what is happening.
//
// If Python cannot start (blocked, offline, old browser), the pre-rendered
// defaults stay and a notice says the calculator is read-only. An answer that
// takes longer than a second is announced; one that takes longer than
// HARD_LIMIT_MS ends the worker, which starts again (from its snapshot, fast),
// and the reader is told that the input could not be computed in time.
//
// Everything from outside this script is data to check, not to trust: the URL
// (SharedState.read keeps only this page's calculators and their fields, in
// records without a prototype) and the worker's answers (checkedResult).
//
// Timings for `make bench` are left as performance marks and measures:
// "calc:load-start", "calc:first-result" and "calc:update" (input -> result).

const ASSETS = new URL("./", import.meta.url);
const LOAD_TIMEOUT_MS = 180000; // a slow line may need minutes for ~13 MB; a stuck one should not spin forever
const SLOW_MS = 1000; // an answer takes longer than this: the reader is told it is still being computed
// Python has worked on one request this long: the worker is ended and started again. Every calculator
// answers in milliseconds (the slowest measured, a pasted config on a loaded machine, under 1 s), so this
// only ends computations that would otherwise hold every calculator of the page for minutes.
const HARD_LIMIT_MS = 8000;
const TIMED_OUT = "timed-out"; // what compute() resolves with for a request the worker was ended for
const STAGES = { runtime: 1, package: 2, first: 3 };
// Keys that would reach an object's prototype: never a calculator, a field or a result's key.
const RESERVED = new Set(["__proto__", "constructor", "prototype"]);
const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

/** The one Python runtime of the page, shared by all its calculators. */
class Runtime {
  constructor(config) {
    this.config = config;
    this.state = "idle"; // idle -> loading -> ready | failed; a worker ended for time goes back to loading
    this.worker = null;
    this.pending = new Map(); // id -> {request, resolve, onSlow, slow, hard}
    this.nextId = 1;
    this.listeners = [];
    this.timer = null;
  }

  onStage(listener) {
    this.listeners.push(listener);
  }

  emit(stage) {
    for (const listener of this.listeners) listener(stage);
  }

  start() {
    if (this.state !== "idle") return;
    this.state = "loading";
    if (performance.getEntriesByName("calc:load-start").length === 0) performance.mark("calc:load-start");
    this.emit("runtime");
    if (typeof WebAssembly !== "object" || typeof Worker !== "function") {
      this.fail("this browser has no WebAssembly or Web Workers");
      return;
    }
    try {
      // The runtime's URLs go in the worker's name: it starts on them at its first line, without
      // waiting for a message, which this thread, busy loading the page, would deliver late.
      const urls = { pyodide: new URL(this.config.pyodide, ASSETS).href, wheel: new URL(this.config.wheel, ASSETS).href };
      if (this.config.snapshot) urls.snapshot = new URL(this.config.snapshot, ASSETS).href;
      urls.controlled = Boolean(navigator.serviceWorker && navigator.serviceWorker.controller); // it may have kept the snapshot
      this.worker = new Worker(new URL(this.config.worker, ASSETS), { type: "module", name: JSON.stringify(urls) });
    } catch (err) {
      this.fail(err);
      return;
    }
    const worker = this.worker;
    worker.onmessage = (event) => {
      if (worker === this.worker) this.receive(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (worker === this.worker) this.fail(event.message || "the worker could not start");
    };
    this.timer = setTimeout(() => this.fail("loading took too long"), LOAD_TIMEOUT_MS);
    worker.postMessage({ type: "init", strings: this.config.strings });
    // Requests that were waiting for a worker ended for time go to this one, in their order.
    for (const [id, entry] of this.pending) worker.postMessage({ type: "compute", id, request: entry.request });
    // The calculators ask for their first results now: the worker answers them the moment Python is
    // up, without a round trip through this page.
    this.emit("requests");
  }

  /** A message from the worker: data to check, like anything that crosses into this page. */
  receive(message) {
    if (!message || typeof message !== "object") return;
    if (message.type === "progress" && typeof message.stage === "string") {
      this.emit(message.stage);
    } else if (message.type === "ready") {
      clearTimeout(this.timer);
      this.state = "ready";
      for (const entry of this.pending.values()) this.watchSlow(entry); // waiting since before Python was up
      this.emit("ready");
    } else if (message.type === "failed") {
      this.fail(String(message.reason));
    } else if (message.type === "started") {
      // Python took up this request: it may hold the worker for HARD_LIMIT_MS at most.
      const entry = this.pending.get(message.id);
      if (entry && !entry.hard) entry.hard = setTimeout(() => this.timedOut(message.id), HARD_LIMIT_MS);
    } else if (message.type === "result") {
      const entry = this.pending.get(message.id);
      if (!entry) return;
      this.pending.delete(message.id);
      this.settle(entry, checkedResult(message.result));
    }
  }

  /** Tells the calculator once its request has waited SLOW_MS since Python was up (it may wait in a queue). */
  watchSlow(entry) {
    if (entry.slow || this.state !== "ready") return;
    entry.slow = setTimeout(() => entry.onSlow(), SLOW_MS);
  }

  settle(entry, result) {
    clearTimeout(entry.slow);
    clearTimeout(entry.hard);
    entry.resolve(result);
  }

  /**
   * Resolves with calculators.ui.worker.handle's answer (checked), null once the runtime has failed, or
   * TIMED_OUT when Python took too long on it. `onSlow` runs if the answer takes longer than SLOW_MS.
   */
  compute(request, onSlow = () => {}) {
    if (this.state === "failed") return Promise.resolve(null);
    return new Promise((resolve) => {
      const id = this.nextId++;
      const entry = { request, resolve, onSlow, slow: null, hard: null };
      this.pending.set(id, entry);
      if (this.state === "idle") {
        this.start(); // sends every pending request, this one included
      } else {
        this.worker.postMessage({ type: "compute", id, request });
        this.watchSlow(entry);
      }
    });
  }

  /**
   * Python has held the worker for HARD_LIMIT_MS on one request: end the worker (nothing else stops
   * WebAssembly that runs), answer that request with TIMED_OUT and start a new worker for the others
   * (from the snapshot, kept by the HTTP cache or the service worker: about a second).
   */
  timedOut(id) {
    const entry = this.pending.get(id);
    if (!entry || this.state === "failed") return;
    console.warn(`calculators: no answer within ${HARD_LIMIT_MS} ms; the worker is started again`);
    this.pending.delete(id);
    this.worker.terminate();
    this.worker = null;
    clearTimeout(this.timer);
    for (const other of this.pending.values()) {
      clearTimeout(other.slow);
      clearTimeout(other.hard);
      other.slow = other.hard = null;
    }
    this.state = "idle";
    this.settle(entry, TIMED_OUT);
    this.start();
  }

  fail(reason) {
    if (this.state === "failed") return;
    this.state = "failed";
    clearTimeout(this.timer);
    console.warn("calculators: read-only, Python could not start:", reason);
    if (this.worker) this.worker.terminate();
    for (const entry of this.pending.values()) this.settle(entry, null);
    this.pending.clear();
    this.emit("failed");
    reloadIfRuntimeGone(this.config);
  }
}

// ------------------------------------------------------------------ after a new deployment

const RELOADED_KEY = "calc-reloaded"; // sessionStorage: {path, at} of the last reload for a replaced runtime
const RELOAD_AGAIN_MS = 60000; // a page reloads itself at most once a minute (a broken deployment must not loop)

function readReload() {
  try {
    const value = JSON.parse(sessionStorage.getItem(RELOADED_KEY) || "null");
    return value && value.path === window.location.pathname && typeof value.at === "number" ? value : null;
  } catch (err) {
    return null; // no sessionStorage (a private window, blocked storage): no reload, no notice
  }
}

/**
 * Python could not start: if the runtime this page was built with is gone from the host (the site was
 * deployed again since the page was loaded, and no service worker keeps the old runtime), the page
 * reloads itself once, with its state (in the URL), and says why; otherwise it stays read-only.
 */
async function reloadIfRuntimeGone(config) {
  if (navigator.onLine === false) return;
  try {
    const response = await fetch(new URL(config.wheel, ASSETS).href, { method: "HEAD", cache: "no-store" });
    if (response.status !== 404) return;
    const last = readReload();
    if (last && Date.now() - last.at < RELOAD_AGAIN_MS) return;
    sessionStorage.setItem(RELOADED_KEY, JSON.stringify({ path: window.location.pathname, at: Date.now(), shown: false }));
  } catch (err) {
    return; // offline after all, or no sessionStorage: read-only, as before
  }
  window.location.reload();
}

/** After such a reload: one notice above the page's first calculator, in the page's language. */
function noticeAfterReload(config, first) {
  const last = readReload();
  if (!last || last.shown || !config.notices || !config.notices.updated) return;
  try {
    sessionStorage.setItem(RELOADED_KEY, JSON.stringify({ ...last, shown: true }));
  } catch (err) {
    return;
  }
  const notice = document.createElement("p");
  notice.className = "calc-updated";
  notice.setAttribute("role", "status");
  notice.textContent = config.notices.updated;
  first.before(notice);
}

/** A plain record of `value`'s own string-valued entries (no prototype to read through, no reserved keys). */
function stringRecord(value) {
  const out = Object.create(null);
  if (!value || typeof value !== "object" || Array.isArray(value)) return out;
  for (const [key, item] of Object.entries(value)) {
    if (RESERVED.has(key)) continue;
    if (typeof item === "string") out[key] = item;
    else if (typeof item === "number" && Number.isFinite(item)) out[key] = String(item);
  }
  return out;
}

/**
 * The worker's answer, checked: every field of the expected type or empty, records without a
 * prototype. An answer of any other shape reads as "not computed" (the last result stays).
 */
function checkedResult(raw) {
  const ok = Boolean(raw && typeof raw === "object" && raw.ok === true);
  const text = (key) => (raw && typeof raw === "object" && hasOwn(raw, key) && typeof raw[key] === "string" ? raw[key] : "");
  const record = (key) => stringRecord(raw && typeof raw === "object" && hasOwn(raw, key) ? raw[key] : null);
  const result = { ok, errors: record("errors"), html: text("html"), chart: text("chart"), state: record("state"),
                   failure: text("failure"), debug: text("debug") };
  if (raw && typeof raw === "object" && hasOwn(raw, "texts")) result.texts = record("texts");
  if (raw && typeof raw === "object" && hasOwn(raw, "article")) result.article = checkedArticle(raw.article);
  return result;
}

/** The example control's article (calculators/example/render.py), checked like the rest of an answer. */
function checkedArticle(raw) {
  const part = (key) => stringRecord(raw && typeof raw === "object" && hasOwn(raw, key) ? raw[key] : null);
  const object = (value) => (value && typeof value === "object" && !Array.isArray(value) ? value : {});
  const provenance = object(raw && hasOwn(raw, "provenance") ? raw.provenance : null);
  const text = raw && typeof raw === "object" && typeof raw.announce === "string" ? raw.announce : "";
  return { figs: part("figs"), groups: part("groups"), names: part("names"), says: part("says"), charts: part("charts"),
           provenance: { figs: object(provenance.figs), src: object(provenance.src) }, announce: text };
}

/** Mirrors the calculators' states into the URL and the language switcher. */
class SharedState {
  constructor() {
    this.calculators = [];
    this.stopMaterialRedirect = (event) => event.stopPropagation();
  }

  /**
   * The query string's calculator states: Map(instance -> {field: text}), records without a prototype.
   *
   * The query string is anyone's to write (a link from elsewhere), so it is read against a schema:
   * `schema` maps this page's calculator instances to the names of their fields, and a key is kept
   * only as "<instance>.<field>" of that schema; "__proto__", "constructor" and "prototype" never.
   * Values stay text: Python reads and checks them like typed input.
   */
  static read(schema, search = window.location.search) {
    const out = new Map();
    for (const [key, value] of new URLSearchParams(search)) {
      const dot = key.indexOf(".");
      if (dot < 1) continue;
      const instance = key.slice(0, dot);
      const field = key.slice(dot + 1);
      if (RESERVED.has(instance) || RESERVED.has(field)) continue;
      const fields = schema.get(instance);
      if (!fields || !fields.has(field)) continue;
      if (!out.has(instance)) out.set(instance, Object.create(null));
      out.get(instance)[field] = value; // the last of repeated keys wins
    }
    return out;
  }

  query() {
    const params = new URLSearchParams();
    for (const calc of this.calculators) {
      for (const field of Object.keys(calc.state)) params.append(`${calc.instance}.${field}`, calc.state[field]);
    }
    return params.toString();
  }

  update() {
    const query = this.query();
    const search = query ? `?${query}` : "";
    if (search !== window.location.search) {
      history.replaceState(history.state, "", `${window.location.pathname}${search}${window.location.hash}`);
    }
    // The same page in another language takes the same (language-neutral) state. Material's own
    // handler would send the reader to the page without it, so a link with state keeps its click.
    for (const link of document.querySelectorAll("a.md-select__link[hreflang]")) {
      if (!link.dataset.calcBase) link.dataset.calcBase = link.getAttribute("href");
      link.setAttribute("href", link.dataset.calcBase + search);
      link.removeEventListener("click", this.stopMaterialRedirect);
      if (search) link.addEventListener("click", this.stopMaterialRedirect);
    }
  }
}

/** True when `html` parses to what `container` already shows (no needless redraw or announcement). */
function sameContent(container, html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.innerHTML === container.innerHTML;
}

/** One calculator on the page: its form, its result, its status. */
class Calculator {
  constructor(el, runtime, shared, config) {
    this.el = el;
    this.name = el.dataset.calc;
    this.instance = el.dataset.instance;
    this.runtime = runtime;
    this.shared = shared;
    this.config = config;
    this.form = el.querySelector(".calc-form");
    this.controls = Array.from(this.form.elements).filter((c) => c.name && !RESERVED.has(c.name));
    this.fields = new Set(this.controls.map((c) => c.name)); // the names a URL or an answer may use
    this.defaults = Object.fromEntries(this.controls.map((c) => [c.name, c.value]));
    this.status = el.querySelector(".calc-status");
    this.notice = el.querySelector(".calc-notice");
    this.staleNote = el.querySelector(".calc-stale-note");
    this.notices = config.notices || {}; // the page's own words for a slow or stopped computation
    this.output = el.querySelector(".calc-output");
    this.chart = el.querySelector(".calc-chart");
    this.state = Object.create(null); // the last good result's fields that differ from the defaults
    this.sharedState = null; // a state from the URL, applied by the first computation
    this.busy = false;
    this.again = false;
    this.editedAt = null;
    this.hadResult = false;
    // The example control re-renders the article around it (the running example: ExampleArticle).
    this.article = el.classList.contains("calc-example") ? new ExampleArticle(this) : null;
  }

  init(sharedState) {
    this.form.addEventListener("submit", (event) => event.preventDefault());
    this.form.addEventListener("input", (event) => this.edited(event));
    this.form.addEventListener("change", (event) => this.edited(event));
    this.initConfigFile();
    // The reader's first touch starts Python: a field taking focus (a tap, a click, the keyboard). Not
    // a pointer going down anywhere on the calculator: on a phone that is also how a page is scrolled.
    this.form.addEventListener("focusin", () => this.runtime.start());
    this.runtime.onStage((stage) => this.stage(stage));
    if (sharedState) {
      // The inputs wait, disabled, until Python has turned the shared state into this page's language.
      this.sharedState = sharedState;
      this.state = sharedState; // stays in the URL until a result replaces it
      this.el.setAttribute("aria-busy", "true");
      this.request();
    } else {
      this.setEnabled(true);
    }
  }

  /** Only this calculator's own fields, from a record already checked (checkedResult). */
  ownFields(record) {
    const out = Object.create(null);
    for (const key of Object.keys(record)) if (this.fields.has(key)) out[key] = record[key];
    return out;
  }

  setEnabled(enabled) {
    for (const control of this.controls) control.disabled = !enabled;
    for (const input of this.el.querySelectorAll(".calc-config-file")) input.disabled = !enabled;
  }

  /** A chosen or dropped config.json goes into the text area (read here, in the page: nothing is uploaded). */
  initConfigFile() {
    const area = this.form.elements.namedItem("config");
    if (!area) return;
    const load = (file) => {
      if (!file) return;
      // Read at most one character more than Python accepts, so a huge file costs nothing and still
      // gets Python's "too large" message in the reader's language.
      file.slice(0, (this.config.configMaxChars || 200000) + 1).text().then((text) => {
        area.value = text;
        this.editedAt = performance.now();
        this.request();
      });
    };
    for (const input of this.el.querySelectorAll(".calc-config-file")) {
      input.addEventListener("change", (event) => {
        event.stopPropagation();
        load(input.files[0]);
        input.value = "";
      });
    }
    area.addEventListener("dragover", (event) => event.preventDefault());
    area.addEventListener("drop", (event) => {
      if (!event.dataTransfer || event.dataTransfer.files.length === 0) return;
      event.preventDefault();
      load(event.dataTransfer.files[0]);
    });
  }

  texts() {
    return Object.fromEntries(this.controls.map((c) => [c.name, c.value]));
  }

  edited(event) {
    // Text fields report every keystroke ("input"), selects their choice ("change"): one request per edit.
    if (!event.target.name) return; // the config file input: initConfigFile reads it
    if ((event.type === "change") !== (event.target.tagName === "SELECT")) return;
    this.editedAt = performance.now();
    this.showCustomFields();
    this.request();
  }

  showCustomFields() {
    const model = this.form.elements.namedItem("model");
    const custom = model && model.value === "custom";
    for (const field of this.el.querySelectorAll(".calc-custom")) field.hidden = !custom;
    const own = model && model.value === "config";
    for (const field of this.el.querySelectorAll(".calc-byo")) field.hidden = !own;
  }

  /** Ask Python for the current inputs; while it is busy, remember to ask again (latest input wins). */
  request() {
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    this.el.dataset.pending = "true"; // for tests and the benchmark: a result is on its way
    const startedAt = this.editedAt;
    this.editedAt = null;
    const request = { calc: this.name, instance: this.instance, locale: this.config.locale };
    if (this.sharedState) request.state = this.sharedState;
    else request.texts = this.texts();
    if (this.article) request.page = this.article.request();
    this.runtime.compute(request, () => this.slow()).then((result) => {
      this.busy = false;
      delete this.el.dataset.slow;
      if (result === TIMED_OUT) this.timedOut();
      else if (result) this.apply(result, startedAt);
      if (this.again && this.runtime.state !== "failed") {
        this.again = false;
        this.request();
      } else {
        delete this.el.dataset.pending;
      }
    });
  }

  /** The answer takes longer than SLOW_MS: say so (the status line is a live region). */
  slow() {
    if (!this.busy) return;
    this.el.dataset.slow = "true";
    this.status.textContent = this.notices.slow || "";
  }

  /** Python was stopped on this input: the last result stays, marked, with the reason. */
  timedOut() {
    if (this.sharedState) { // a link's inputs: the calculator is the reader's again, at its defaults
      this.sharedState = null;
      this.state = Object.create(null);
      this.el.removeAttribute("aria-busy");
      this.setEnabled(true);
      this.shared.update();
    }
    this.hadResult = true; // no automatic first request over this message: the reader's next input asks
    this.el.classList.add("calc-stale");
    this.staleNote.hidden = true;
    this.status.textContent = this.notices.timeout || "";
    this.el.dispatchEvent(new CustomEvent("calc-timeout", { bubbles: true }));
  }

  apply(result, startedAt) {
    if (result.texts) {
      for (const control of this.controls) {
        if (hasOwn(result.texts, control.name)) control.value = result.texts[control.name];
      }
      this.showCustomFields();
    }
    if (this.sharedState) {
      this.sharedState = null;
      this.el.removeAttribute("aria-busy");
      this.setEnabled(true);
    }
    for (const control of this.controls) {
      const message = hasOwn(result.errors, control.name) ? result.errors[control.name] : "";
      const slot = this.el.querySelector(`#${CSS.escape(`${this.instance}-${control.name}-error`)}`);
      if (slot && slot.textContent !== message) slot.textContent = message;
      if (message) control.setAttribute("aria-invalid", "true");
      else control.removeAttribute("aria-invalid");
    }
    this.status.textContent = result.failure || "";
    if (result.debug) console.error("calculators:", result.debug);
    if (result.ok) {
      if (!sameContent(this.output, result.html)) this.output.innerHTML = result.html;
      if (!sameContent(this.chart, result.chart)) this.chart.innerHTML = result.chart;
      this.el.classList.remove("calc-stale");
      this.staleNote.hidden = true;
      this.state = this.ownFields(result.state);
      this.shared.update();
      if (this.article && result.article && this.article.apply(result.article, this.state)) {
        this.status.textContent = result.article.announce; // the status line is a polite live region: said once
      }
    } else {
      this.el.classList.add("calc-stale");
      this.staleNote.hidden = false;
    }
    if (!this.hadResult && performance.getEntriesByName("calc:first-result").length === 0) {
      performance.mark("calc:first-result");
    }
    this.hadResult = true;
    if (startedAt !== null) {
      try {
        performance.measure("calc:update", { start: startedAt, end: performance.now() });
      } catch (err) {
        // measures are for the benchmark only
      }
    }
    if (this.article) this.article.showErrors(result.errors);
    this.el.dispatchEvent(new CustomEvent("calc-result", { bubbles: true, detail: result }));
  }

  /** Progress while the runtime loads; on failure, back to the pre-rendered defaults, read-only. */
  stage(stage) {
    if (stage === "failed") {
      for (const control of this.controls) {
        control.value = this.defaults[control.name];
        control.removeAttribute("aria-invalid");
      }
      for (const slot of this.el.querySelectorAll(".calc-error")) slot.textContent = "";
      this.showCustomFields();
      this.setEnabled(false);
      this.el.removeAttribute("aria-busy");
      this.el.classList.remove("calc-stale");
      this.staleNote.hidden = true;
      this.status.textContent = "";
      this.notice.hidden = false;
      return;
    }
    if (stage === "requests" || stage === "ready") {
      // The first result: confirms the pre-rendered one, asked for as soon as the worker exists (it
      // waits there for Python). Input typed meanwhile is already on its way.
      if (!this.busy && !this.hadResult) this.request();
      return;
    }
    if (!(stage in STAGES) || this.hadResult) return;
    const text = this.config.status[stage];
    const label = document.createElement("span");
    label.id = `${this.instance}-progress-label`;
    label.textContent = text;
    const bar = document.createElement("progress");
    bar.max = Object.keys(STAGES).length;
    bar.value = STAGES[stage];
    bar.setAttribute("aria-labelledby", label.id);
    this.status.replaceChildren(bar, " ", label);
  }
}

// ------------------------------------------------------------------ the running example

/**
 * The article around an example control (the main article, the speed page): everything the build
 * marked as the running example's, re-rendered in place from the worker's answer
 * (calculators/example/render.py). Figures keep their ids; the example gives them new values,
 * words and explanations. Without JavaScript, or before the reader changes anything, the page shows
 * the default example the build printed.
 */
class ExampleArticle {
  constructor(calc) {
    this.calc = calc;
    this.root = calc.el.closest(".md-content") || document.body;
    this.shown = "[]"; // the state the page shows: the build printed the defaults (no field changed)
    const inside = (el, selector) => el.parentElement && el.parentElement.closest(selector);
    const outside = (el) => !inside(el, ".ex-say, .ex-g, .calc");
    this.says = Array.from(this.root.querySelectorAll(".ex-say[data-say]"));
    this.groups = Array.from(this.root.querySelectorAll(".ex-g[data-fig]")).filter(outside);
    this.names = Array.from(this.root.querySelectorAll(".ex-name[data-ex]")).filter(outside);
    this.charts = Array.from(this.root.querySelectorAll(".ex-chart[data-chart]"));
    this.figs = Array.from(this.root.querySelectorAll("a.fig[data-fig], .ex-input[data-fig]")).filter(outside);
    this.inputs = Array.from(this.root.querySelectorAll(".ex-input[data-field]"), (el) => new ProseInput(el, calc));
    let sources = "";
    try {
      const island = document.getElementById("fig-provenance");
      sources = island ? String(JSON.parse(island.textContent).urls.sources || "") : "";
    } catch (err) {
      sources = "";
    }
    const unique = (items) => Array.from(new Set(items));
    this.page = {
      sources,
      figs: unique(this.figs.map((el) => el.dataset.fig)),
      groups: unique(this.groups.map((el) => JSON.stringify(ExampleArticle.group(el)))).map((g) => JSON.parse(g)),
      names: unique(this.names.map((el) => JSON.stringify(ExampleArticle.name(el)))).map((n) => JSON.parse(n)),
      says: unique(this.says.map((el) => el.dataset.say)),
      charts: unique(this.charts.map((el) => el.dataset.chart)),
    };
  }

  static group(el) {
    const [one, other] = (el.dataset.noun || "").split("|");
    return [el.dataset.fig, el.dataset.art || "", one || "", other || "", el.dataset.style || ""];
  }

  static name(el) {
    return [el.dataset.ex, el.dataset.form || "", el.dataset.cap === "1"];
  }

  /** What the worker needs to know of this page (sent with every request of the example control). */
  request() {
    return this.page;
  }

  /** The worker's answer into the page; false when it shows what the page already shows (nothing to announce). */
  apply(article, state) {
    const key = JSON.stringify(Object.keys(state).sort().map((k) => [k, state[k]]));
    const started = performance.now();
    if (key === this.shown) return false;
    this.shown = key;
    const setText = (el, text) => {
      if (typeof text === "string" && el.textContent !== text) el.textContent = text;
    };
    const setHTML = (el, html) => {
      if (typeof html === "string" && !sameContent(el, html)) el.innerHTML = html;
    };
    for (const el of this.figs) if (hasOwn(article.figs, el.dataset.fig)) setText(el, article.figs[el.dataset.fig]);
    for (const el of this.groups) {
      const k = ExampleArticle.group(el).join("|");
      if (hasOwn(article.groups, k)) setHTML(el, article.groups[k]);
    }
    for (const el of this.names) {
      const [name, form, cap] = ExampleArticle.name(el);
      const k = [name, form, cap ? "1" : ""].join("|");
      if (hasOwn(article.names, k)) setText(el, article.names[k]);
    }
    for (const el of this.says) if (hasOwn(article.says, el.dataset.say)) setHTML(el, article.says[el.dataset.say]);
    for (const el of this.charts) if (hasOwn(article.charts, el.dataset.chart)) setHTML(el, article.charts[el.dataset.chart]);
    for (const input of this.inputs) input.update(state);
    // The explanations beside the figures (docs/assets/explain.js keeps the page's and takes these over them).
    document.dispatchEvent(new CustomEvent("fig-provenance", { detail: article.provenance }));
    try {
      performance.measure("example:render", { start: started, end: performance.now() });
    } catch (err) {
      // measures are for the benchmark only
    }
    return true;
  }

  showErrors(errors) {
    for (const input of this.inputs) input.error(hasOwn(errors, input.field) ? errors[input.field] : "");
  }
}

/**
 * A number of the running example that the reader can change where the prose states it (the context,
 * the batch): a spin button (arrow keys halve and double it; Enter, Space, a tap or a click open a
 * small input for any value), bound to the example control's field of the same name.
 */
class ProseInput {
  constructor(el, calc) {
    this.el = el;
    this.calc = calc;
    this.field = el.dataset.field;
    this.control = calc.form.elements.namedItem(this.field);
    this.value = Number(el.dataset.value);
    this.initial = this.value;
    if (!this.control || !Number.isFinite(this.value)) return;
    el.setAttribute("role", "spinbutton");
    el.setAttribute("tabindex", "0");
    el.setAttribute("aria-label", el.dataset.label || this.field);
    el.setAttribute("aria-valuemin", "2");
    el.setAttribute("aria-describedby", `${calc.instance}-${this.field}-error`);
    this.sync();
    el.addEventListener("focus", () => calc.runtime.start()); // a number the reader reaches starts Python, as a field does
    el.addEventListener("keydown", (event) => this.key(event));
    el.addEventListener("click", () => this.open());
  }

  sync() {
    this.el.setAttribute("aria-valuenow", String(this.value));
    this.el.setAttribute("aria-valuetext", this.el.textContent);
  }

  /** After an answer: the value the example now has (its state, or the page's default). */
  update(state) {
    const value = Number(hasOwn(state, this.field) ? state[this.field] : this.initial);
    if (Number.isFinite(value)) this.value = value;
    this.sync();
  }

  key(event) {
    if (this.calc.runtime.state === "failed") return;
    if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      event.preventDefault();
      const next = event.key === "ArrowUp" ? this.value * 2 : Math.max(2, Math.floor(this.value / 2));
      this.set(String(next));
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.open();
    }
  }

  /** The field takes the text (the reader's own, or digits), and the control asks Python as for a typed edit. */
  set(text) {
    if (this.control.disabled) return;
    const value = Number(text);
    if (Number.isFinite(value)) {
      this.value = value;
      this.el.setAttribute("aria-valuenow", text);
    }
    this.control.value = text;
    this.control.dispatchEvent(new Event("input", { bubbles: true }));
  }

  /** A small labelled input in place of the number; Enter or leaving it commits, Escape cancels. */
  open() {
    if (this.editor || this.calc.runtime.state === "failed") return;
    this.calc.runtime.start();
    const editor = document.createElement("input");
    editor.type = "text";
    editor.className = "ex-input-editor";
    editor.setAttribute("inputmode", "numeric");
    editor.setAttribute("autocomplete", "off");
    editor.setAttribute("aria-label", this.el.getAttribute("aria-label"));
    editor.value = this.control.value;
    editor.size = Math.max(4, editor.value.length + 1);
    this.editor = editor;
    this.el.hidden = true;
    this.el.after(editor);
    editor.focus();
    editor.select();
    let done = false;
    const close = (commit) => {
      if (done) return;
      done = true;
      const text = editor.value.trim();
      editor.remove();
      this.editor = null;
      this.el.hidden = false;
      if (commit && text && text !== this.control.value) this.set(text);
      this.el.focus();
    };
    editor.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        close(true);
      } else if (event.key === "Escape") {
        event.preventDefault();
        close(false);
      }
    });
    editor.addEventListener("blur", () => close(true));
  }

  /** The control's message for this field, shown beside the number too (and read with it: aria-describedby). */
  error(message) {
    if (message) this.el.setAttribute("aria-invalid", "true");
    else this.el.removeAttribute("aria-invalid");
    let bubble = this.el.nextElementSibling;
    if (!bubble || !bubble.classList.contains("ex-input-error")) {
      if (!message) return;
      bubble = document.createElement("span");
      bubble.className = "ex-input-error";
      this.el.after(bubble);
    }
    bubble.textContent = message ? ` (${message})` : "";
  }
}

/**
 * A desktop-class device on a connection the browser reports fast, not asked to save data: a fine
 * pointer that hovers (not a phone or tablet), 4 GB of memory or more where the browser says, and
 * navigator.connection with effectiveType "4g" and downlink at its ceiling (Chromium reports at most
 * 10 Mbit/s). Browsers without navigator.connection (Firefox, Safari) never count as fast here.
 */
function fastDesktop() {
  const connection = navigator.connection;
  if (!connection || connection.saveData || connection.effectiveType !== "4g" || !(connection.downlink >= 10)) return false;
  if (connection.type === "cellular") return false;
  if (typeof navigator.deviceMemory === "number" && navigator.deviceMemory < 4) return false;
  return window.matchMedia("(pointer: fine) and (hover: hover)").matches;
}

/**
 * On a fast desktop only, Python starts before the first touch: once the page has loaded and the
 * browser is idle, and a calculator is within a screen of the view. Measured (README, "When Python
 * starts"): a start costs about 19 MB of downloads and 130 MB of memory and blocks nothing on the
 * page's thread; started on the touch it makes the reader wait 0.7 s on a local host, 2.2 s at
 * 100 Mbit/s and 8.5 s at 20 Mbit/s, which a reader on such a line then does not wait.
 */
function startWhenIdleOnFastDesktop(runtime, elements) {
  if (!fastDesktop() || !("IntersectionObserver" in window)) return;
  const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 1000));
  const watch = () => {
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      idle(() => runtime.start(), { timeout: 3000 });
    }, { rootMargin: "100% 0px" });
    for (const el of elements) observer.observe(el);
  };
  if (document.readyState === "complete") idle(watch, { timeout: 3000 });
  else window.addEventListener("load", () => idle(watch, { timeout: 3000 }), { once: true });
}

/**
 * Registers the service worker that keeps the runtime for the next visit (sitebuild/service_worker.js).
 * Only once a calculator has started Python here and it is up (a reader who never reaches a
 * calculator downloads nothing for it; the files are then in the HTTP cache, not fetched twice at
 * once), when the page is idle, and not when the reader asked to save data.
 */
function keepRuntimeForNextVisit(runtime, url) {
  if (!url || !("serviceWorker" in navigator) || (navigator.connection && navigator.connection.saveData)) return;
  const register = () => {
    navigator.serviceWorker
      .register(new URL(url, ASSETS).href, { scope: new URL("../", ASSETS).href })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        // This page was loaded before the worker existed: it names itself and its files to be kept
        // (from the HTTP cache, no new download), so that it opens offline too.
        const files = performance.getEntriesByType("resource").map((entry) => entry.name);
        const page = window.location.href.split("#")[0];
        registration.active.postMessage({ type: "keep-page", urls: [page, ...files] });
      })
      .catch((err) => {
        console.info("calculators: no offline copy of the runtime:", String((err && err.message) || err));
      });
  };
  const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 1000));
  const whenIdle = () => idle(register, { timeout: 5000 });
  const afterLoad = () => {
    if (document.readyState === "complete") whenIdle();
    else window.addEventListener("load", whenIdle, { once: true });
  };
  let done = false;
  runtime.onStage((stage) => {
    if (stage === "ready" && !done) {
      done = true;
      afterLoad();
    }
  });
}

function main() {
  const island = document.getElementById("calc-config");
  const elements = document.querySelectorAll(".calc[data-calc]");
  if (!island || elements.length === 0) return;
  const config = JSON.parse(island.textContent);
  const runtime = new Runtime(config);
  const shared = new SharedState();
  const calculators = Array.from(elements, (el) => new Calculator(el, runtime, shared, config));
  const schema = new Map(calculators.map((calc) => [calc.instance, calc.fields]));
  const fromURL = SharedState.read(schema);
  for (const calc of calculators) {
    shared.calculators.push(calc);
    calc.init(fromURL.get(calc.instance) || null); // a link's inputs start Python at once: they need it to show
  }
  if (fromURL.size > 0) shared.update(); // the language links carry the state at once
  noticeAfterReload(config, elements[0]);
  // Otherwise Python starts on the reader's first touch of a calculator (Calculator.init), not
  // when one scrolls into view: reading a page on a phone must not cost its 20 MB runtime. Only a
  // desktop on a fast connection starts it ahead, when idle (startWhenIdleOnFastDesktop), and never for
  // the running example's control: it sits at the top of an article that is read, not computed, so a
  // reader who never touches it loads nothing beyond the page.
  startWhenIdleOnFastDesktop(runtime, Array.from(elements).filter((el) => !el.classList.contains("calc-example")));
  keepRuntimeForNextVisit(runtime, config.service_worker);
}

main();
