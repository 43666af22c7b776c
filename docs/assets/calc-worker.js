// The calculators' Python, in a Web Worker so that the page never freezes.
//
// Runs the site's own `calculators` package (the wheel the build made) on
// Pyodide: every answer comes from calculators.ui.worker.handle, the function the
// build used to pre-render the page, so browser and page print the same.
//
// Start-up: from the build's memory snapshot of Pyodide with the package already
// imported (tools/make_snapshot.mjs), a fraction of a boot. The snapshot is
// served as a gzipped page map (docs/assets/snapshot-pages.mjs: the heap
// without its empty pages; any static host can serve it) and unpacked here.
// If it cannot be used (missing, corrupt, made by another Pyodide build, a
// browser without DecompressionStream), the worker boots Pyodide as without
// one and says so once in the console; the reader sees nothing but a slower start.
//
// The worker starts at its first line, from the URLs the page put in its name
// ({pyodide: folder URL, wheel: wheel URL, snapshot?: URL, controlled: whether
// the site's service worker controls the page}, JSON): a message
// sent to a worker that is still starting is only delivered once the page's
// main thread, busy loading the page, has time for it (measured: up to 80 ms).
//
// Messages from the page:
//   {type: "init", strings: {msgid: text}}            the UI strings, installed after the restore
//   {type: "compute", id, request: {calc, instance, locale, texts | state}}
// Messages to the page:
//   {type: "progress", stage: "package" | "first"}   Pyodide is up / the package is imported
//   {type: "ready"} | {type: "failed", reason}
//   {type: "started", id}                             Python takes up this request now
//   {type: "result", id, result}                      the JSON answer of calculators.ui.worker.handle
// Computations sent before "ready" wait for it (the page sends its first ones with "init"):
// they run one at a time, the waiting ones at once when Python is up.

// Where the start-up time goes, for `make bench` (tools/bench_browser.py reads these marks).
const mark = (stage) => performance.mark(`calc-worker:${stage}`);

let resolveStrings;
const strings = new Promise((resolve) => {
  resolveStrings = resolve;
});

async function fetchBytes(url, fetchWith = fetch) {
  const response = await fetchWith(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

// ------------------------------------------------------------------ early downloads and compile

const preloaded = new Map(); // URL -> Promise<Response>, handed to Pyodide's loader when it asks
const placeholders = new WeakSet(); // what the loader got instead of the WebAssembly (compiled here)
let compiledWasm = null;

/**
 * Pyodide's files requested, and its WebAssembly compiled, from the worker's first moment.
 *
 * Why: Pyodide's loader asks for its files only once its own module is loaded, and compiles
 * the WebAssembly only once the snapshot is unpacked, one after the other; measured in
 * Chromium, the compile (about 100 ms) then waited for the unpacking. Here it streams
 * beside the downloads and the unpacking. The loader's requests for these URLs get the
 * responses already under way; for the WebAssembly, a placeholder, and its instantiation
 * the module compiled here (its own way if that compile failed). Pyodide offers no option
 * for either, so the worker's `fetch` and `WebAssembly.instantiateStreaming` are wrapped:
 * this worker runs nothing but Pyodide.
 */
function startEarly(pyodideURL, controlled) {
  const wasmURL = new URL("pyodide.asm.wasm", pyodideURL).href;
  const fetchNative = self.fetch.bind(self);
  const instantiateNative = WebAssembly.instantiateStreaming.bind(WebAssembly);
  // Where the service worker keeps it, compiled from its whole bytes: a streaming compile decodes the
  // module on this worker's thread as the bytes arrive, which pays on a download but, on a repeat visit,
  // only competes with reading the kept snapshot; from whole bytes V8 decodes on its own threads.
  // Measured in Chromium, alternating repeat visits of one build: first result 543 against 586 ms
  // (medians of 14); first visits keep streaming (832 against 835 ms, the same).
  compiledWasm = controlled
    ? fetchBytes(wasmURL, fetchNative).then((bytes) => WebAssembly.compile(bytes))
    : WebAssembly.compileStreaming(fetchNative(wasmURL));
  compiledWasm.then(() => mark("wasm"), () => {}); // on failure the loader's own way runs, and reports
  for (const name of ["python_stdlib.zip", "pyodide-lock.json"]) {
    const url = new URL(name, pyodideURL).href;
    const response = fetchNative(url);
    response.catch(() => {}); // reported to the loader, which asks for it
    preloaded.set(url, response);
  }
  self.fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url === wasmURL) {
      const placeholder = new Response(null, { headers: { "Content-Type": "application/wasm" } });
      placeholders.add(placeholder);
      return Promise.resolve(placeholder);
    }
    const early = preloaded.get(url);
    preloaded.delete(url);
    return early || fetchNative(input, init);
  };
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const response = await source;
    if (!placeholders.has(response)) return instantiateNative(response, imports);
    await heapFilled; // a restore: Pyodide reads the heap right after the instantiation
    try {
      const module = await compiledWasm;
      return { module, instance: await WebAssembly.instantiate(module, imports) };
    } catch (err) {
      return instantiateNative(fetchNative(wasmURL), imports);
    }
  };
}

// ------------------------------------------------------------------ the snapshot

/** The page map as the service worker kept it, gunzipped, after a first visit ("<URL>?raw"): a Blob, or null. */
async function keptMap(url) {
  try {
    const kept = self.caches && (await caches.match(`${url}?raw`));
    // As a blob: Chromium then reads the file it keeps at once instead of streaming it (half the time).
    return kept ? await kept.blob() : null;
  } catch (err) {
    return null; // no Cache Storage here (an insecure origin, a private window): downloaded instead
  }
}

/** A kept snapshot that failed would fail on every visit: drop it (the next visit downloads it). */
async function forgetKeptSnapshot(url) {
  try {
    if (!self.caches) return;
    for (const name of await caches.keys()) await (await caches.open(name)).delete(`${url}?raw`);
  } catch (err) {
    // nothing kept, or no Cache Storage: nothing to forget
  }
}

const GZIP_MAGIC = [0x1f, 0x8b];
const HEADER_BYTES = 64; // more than any page map's header (snapshot-pages.mjs)

/** All of a stream's bytes; its first HEADER_BYTES to `onHeader` as soon as they are in. */
async function collect(stream, onHeader) {
  const reader = stream.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const told = size >= HEADER_BYTES;
    parts.push(value);
    size += value.length;
    if (!told && size >= HEADER_BYTES) onHeader(joined(parts, HEADER_BYTES));
  }
  return joined(parts, size);
}

function joined(parts, size) {
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    if (at >= size) break;
    out.set(part.subarray(0, size - at), at);
    at += part.length;
  }
  return out;
}

/** The page map downloaded and gunzipped as it arrives (unless the host already sent it decoded). */
async function downloadMap(url, onHeader) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const body = response.body.getReader();
  const first = await body.read();
  let stream = new ReadableStream({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(first.value);
    },
    async pull(controller) {
      const { done, value } = await body.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
  const head = first.value || new Uint8Array(0);
  if (head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]) { // else a host that set Content-Encoding
    if (typeof DecompressionStream !== "function") throw new Error("this browser has no DecompressionStream");
    stream = stream.pipeThrough(new DecompressionStream("gzip"));
  }
  try {
    return await collect(stream, onHeader);
  } catch (err) {
    throw new Error(`${url} does not unpack (${(err && err.message) || err}): cut short or not gzip`);
  }
}

/** The page map as kept, else downloaded: only a page the service worker controls can have it kept. */
async function readMap(url, controlled, onHeader) {
  const kept = controlled ? await keptMap(url) : null;
  if (!kept) return downloadMap(url, onHeader);
  onHeader(new Uint8Array(await kept.slice(0, HEADER_BYTES).arrayBuffer()));
  return new Uint8Array(await kept.arrayBuffer());
}

/**
 * The heap Pyodide restores, in two steps: {heap, filled}, promises of the same Uint8Array.
 *
 * Why two: Pyodide's loader needs the heap's length to prepare its module (about 100 ms of its
 * JavaScript, measured), and its bytes only once the WebAssembly is instantiated. `heap` comes
 * with the page map's first bytes, zeros of the right length; `filled` once the map is unpacked
 * into it, which the instantiation waits for (startEarly). Not looking into Cache Storage on a
 * first visit: an empty one cost up to 150 ms before the download started (measured).
 */
function snapshotHeap(url, controlled) {
  const pages = import(new URL(`snapshot-pages.mjs${new URL(import.meta.url).search}`, import.meta.url).href);
  let gotHeader, noHeader;
  const header = new Promise((resolve, reject) => {
    gotHeader = resolve;
    noHeader = reject;
  });
  const map = readMap(url, controlled, gotHeader);
  map.then((bytes) => gotHeader(bytes), noHeader); // a map shorter than HEADER_BYTES, or none at all
  const heap = Promise.all([pages, header]).then(([{ heapLength }, head]) => new Uint8Array(heapLength(head)));
  const filled = Promise.all([pages, map, heap]).then(([{ unpackPages }, bytes, target]) => unpackPages(bytes, target));
  heap.catch(() => {});
  filled.then(() => mark("heap"), () => {}); // failures are reported by restore()
  return { heap, filled };
}

let heapFilled = null; // what the instantiation waits for during a restore (see snapshotHeap)

/** Pyodide from the snapshot; null (and one console line) when it cannot be used. */
async function restore(loadPyodide, options, snapshot, url) {
  // A map that fails to unpack leaves the heap without Pyodide's header: the restore then fails
  // (not hangs: a failed instantiation would leave Pyodide waiting), and this says why.
  heapFilled = snapshot.filled
    .then(() => {}, () => snapshot.heap.then((heap) => heap.fill(0, 0, HEADER_BYTES)))
    .catch(() => {}); // no heap at all: loadPyodide fails before it instantiates
  try {
    const py = await loadPyodide({ ...options, _loadSnapshot: snapshot.heap });
    // The snapshot froze the random state of its build: every worker must get its own. Through the
    // module objects, not Python source: compiling source is work no first answer needs.
    const random = py.pyimport("sys").modules.get("random");
    if (random) random.seed();
    return py;
  } catch (err) {
    const reason = await snapshot.filled.then(() => err, (failed) => failed);
    console.info("calculators: the Pyodide snapshot could not be used, booting without it:", String((reason && reason.message) || reason));
    forgetKeptSnapshot(url);
    return null;
  } finally {
    heapFilled = null;
  }
}

// ------------------------------------------------------------------ start-up

/** The wheel's files into site-packages: no micropip, no index, nothing but our own files. */
async function installWheel(py, wheelBytes) {
  const sitePackages = py.runPython("import sysconfig; sysconfig.get_path('purelib')");
  py.unpackArchive(await wheelBytes, "wheel", { extractDir: sitePackages });
  py.runPython("import importlib; importlib.invalidate_caches()");
}

async function boot({ pyodide: pyodideURL, wheel, snapshot, controlled }) {
  mark("start");
  // Requested in the order they are needed. First the snapshot: downloading and unpacking it is
  // the longest chain of a first visit, and loadPyodide waits for it before it instantiates.
  const dump = snapshot ? snapshotHeap(snapshot, controlled) : null;
  // Pyodide's own module (1.2 MB of JavaScript), loaded alongside its loader rather than after it:
  // loadPyodide imports the same URL and gets this module.
  import(`${pyodideURL}pyodide.asm.mjs`).catch(() => {}); // a failure is reported by loadPyodide
  const loader = import(new URL("pyodide.mjs", pyodideURL).href);
  startEarly(pyodideURL, controlled);
  // The wheel last: it is small and needed only at the end.
  const wheelBytes = fetchBytes(wheel);
  wheelBytes.catch(() => {}); // a failure is reported where it is awaited
  const { loadPyodide } = await loader;
  const options = { indexURL: pyodideURL, stdout: () => {}, stderr: (line) => console.warn(line) };
  const restored = dump && (await restore(loadPyodide, options, dump, snapshot));
  const py = restored || (await loadPyodide(options));
  mark("python");
  postMessage({ type: "progress", stage: "package" });
  if (restored) {
    // The snapshot holds every module of the package imported and its data loaded
    // (tools/make_snapshot.mjs checks that it answers without the files), but not the
    // files themselves (a snapshot has no file system): they follow once the first
    // answers are out, for tracebacks and anything read later.
    setTimeout(() => installWheel(py, wheelBytes).catch((err) => console.warn("calculators: the package files:", err)), 0);
  } else {
    await installWheel(py, wheelBytes);
  }
  const ui = py.pyimport("calculators.ui.worker");
  ui.install_strings(JSON.stringify(await strings));
  postMessage({ type: "progress", stage: "first" });
  return ui.handle;
}

/** The runtime's URLs from the worker's name (see the top); a rejected promise if the page gave none. */
function start() {
  let urls;
  try {
    urls = JSON.parse(self.name);
  } catch (err) {
    return Promise.reject(new Error("the worker was started without the runtime's URLs in its name"));
  }
  return boot(urls);
}

const handle = start(); // Promise of calculators.ui.worker.handle (a Python callable)
handle.then(
  () => postMessage({ type: "ready" }),
  (err) => postMessage({ type: "failed", reason: String((err && err.message) || err) }),
);

function compute(pyHandle, id, request) {
  // The page times Python from here: a request that holds the worker too long ends it (calculators.js).
  postMessage({ type: "started", id });
  let result;
  try {
    result = JSON.parse(pyHandle(JSON.stringify(request)));
  } catch (err) {
    // handle() catches Python errors itself; this is the FFI failing. No message for the reader
    // beyond "cannot be computed": the page keeps its last good result.
    result = { ok: false, errors: {}, html: "", chart: "", state: {}, failure: "", debug: String(err) };
  }
  postMessage({ type: "result", id, result });
  if (performance.getEntriesByName("calc-worker:answer").length === 0) mark("answer");
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "init") {
    resolveStrings(message.strings || {});
  } else if (message.type === "compute") {
    handle.then((pyHandle) => compute(pyHandle, message.id, message.request), () => {});
  }
};
