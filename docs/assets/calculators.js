// Makes the pre-rendered calculators interactive (progressive enhancement).
//
// The page already shows every calculator's default result, rendered at build
// time by calculators.ui. This script enables the inputs and, once a
// calculator scrolls into view or is touched, starts one Web Worker per page
// (docs/assets/calc-worker.js) that runs the same Python on Pyodide. Every
// answer (result table, chart, messages for bad input) comes from Python, in
// the page's language; this script only moves it into the page, keeps the
// state in the URL and tells the reader what is happening.
//
// If Python cannot start (blocked, offline, old browser), the pre-rendered
// defaults stay and a notice says the calculator is read-only.
//
// Timings for `make bench` are left as performance marks and measures:
// "calc:load-start", "calc:first-result" and "calc:update" (input -> result).

const ASSETS = new URL("./", import.meta.url);
const LOAD_TIMEOUT_MS = 180000; // a slow line may need minutes for ~13 MB; a stuck one should not spin forever
const STAGES = { runtime: 1, package: 2, first: 3 };

/** The one Python runtime of the page, shared by all its calculators. */
class Runtime {
  constructor(config) {
    this.config = config;
    this.state = "idle"; // idle -> loading -> ready | failed
    this.worker = null;
    this.pending = new Map();
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
    performance.mark("calc:load-start");
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
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.fail(event.message || "the worker could not start");
    };
    this.timer = setTimeout(() => this.fail("loading took too long"), LOAD_TIMEOUT_MS);
    this.worker.postMessage({ type: "init", strings: this.config.strings });
    // The calculators ask for their first results now: the worker answers them the moment Python is
    // up, without a round trip through this page.
    this.emit("requests");
  }

  receive(message) {
    if (message.type === "progress") {
      this.emit(message.stage);
    } else if (message.type === "ready") {
      clearTimeout(this.timer);
      this.state = "ready";
      this.emit("ready");
    } else if (message.type === "failed") {
      this.fail(message.reason);
    } else if (message.type === "result") {
      const resolve = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (resolve) resolve(message.result);
    }
  }

  /** Resolves with calculators.ui.worker.handle's answer, or null once the runtime has failed. */
  compute(request) {
    if (this.state === "failed") return Promise.resolve(null);
    this.start();
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.pending.set(id, resolve);
      this.worker.postMessage({ type: "compute", id, request });
    });
  }

  fail(reason) {
    if (this.state === "failed") return;
    this.state = "failed";
    clearTimeout(this.timer);
    console.warn("calculators: read-only, Python could not start:", reason);
    if (this.worker) this.worker.terminate();
    for (const resolve of this.pending.values()) resolve(null);
    this.pending.clear();
    this.emit("failed");
  }
}

/** Mirrors the calculators' states into the URL and the language switcher. */
class SharedState {
  constructor() {
    this.calculators = [];
    this.stopMaterialRedirect = (event) => event.stopPropagation();
  }

  /** {instance: {field: canonical value}} read from the query string. */
  static read() {
    const out = {};
    for (const [key, value] of new URLSearchParams(window.location.search)) {
      const dot = key.indexOf(".");
      if (dot < 1) continue;
      const instance = key.slice(0, dot);
      (out[instance] = out[instance] || {})[key.slice(dot + 1)] = value;
    }
    return out;
  }

  query() {
    const params = new URLSearchParams();
    for (const calc of this.calculators) {
      for (const [field, value] of Object.entries(calc.state)) params.append(`${calc.instance}.${field}`, value);
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
    this.controls = Array.from(this.form.elements).filter((c) => c.name);
    this.defaults = Object.fromEntries(this.controls.map((c) => [c.name, c.value]));
    this.status = el.querySelector(".calc-status");
    this.notice = el.querySelector(".calc-notice");
    this.staleNote = el.querySelector(".calc-stale-note");
    this.output = el.querySelector(".calc-output");
    this.chart = el.querySelector(".calc-chart");
    this.state = {}; // the last good result's fields that differ from the defaults
    this.sharedState = null; // a state from the URL, applied by the first computation
    this.busy = false;
    this.again = false;
    this.editedAt = null;
    this.hadResult = false;
  }

  init(sharedState) {
    this.form.addEventListener("submit", (event) => event.preventDefault());
    this.form.addEventListener("input", (event) => this.edited(event));
    this.form.addEventListener("change", (event) => this.edited(event));
    this.initConfigFile();
    this.el.addEventListener("focusin", () => this.runtime.start());
    this.el.addEventListener("pointerdown", () => this.runtime.start());
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
    this.runtime.compute(request).then((result) => {
      this.busy = false;
      if (result) this.apply(result, startedAt);
      if (this.again && this.runtime.state !== "failed") {
        this.again = false;
        this.request();
      } else {
        delete this.el.dataset.pending;
      }
    });
  }

  apply(result, startedAt) {
    if (result.texts) {
      for (const control of this.controls) {
        if (control.name in result.texts) control.value = result.texts[control.name];
      }
      this.showCustomFields();
    }
    if (this.sharedState) {
      this.sharedState = null;
      this.el.removeAttribute("aria-busy");
      this.setEnabled(true);
    }
    for (const control of this.controls) {
      const message = result.errors[control.name] || "";
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
      this.state = result.state;
      this.shared.update();
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
  const fromURL = SharedState.read();
  for (const el of elements) {
    const calc = new Calculator(el, runtime, shared, config);
    shared.calculators.push(calc);
    calc.init(fromURL[calc.instance]);
  }
  if (Object.keys(fromURL).length > 0) shared.update(); // the language links carry the state at once
  if ("IntersectionObserver" in window) {
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        runtime.start();
      }
    }, { rootMargin: "200px" });
    for (const el of elements) observer.observe(el);
  }
  keepRuntimeForNextVisit(runtime, config.service_worker);
}

main();
