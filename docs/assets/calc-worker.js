// The calculators' Python, in a Web Worker so that the page never freezes.
//
// Runs the site's own `calculators` package (the wheel the build made) on
// Pyodide: every answer comes from calculators.ui.handle, the function the
// build used to pre-render the page, so browser and page print the same.
//
// Start-up: from the build's memory snapshot of Pyodide with the package already
// imported (tools/make_snapshot.mjs), a fraction of a boot. The snapshot is
// served gzip-compressed as a plain file (any static host can serve it) and
// unpacked here. If it cannot be used (missing, corrupt, made by another
// Pyodide build, a browser without DecompressionStream), the worker boots
// Pyodide as without one and says so once in the console; the reader sees
// nothing but a slower start.
//
// Messages from the page:
//   {type: "init", pyodide: folder URL, wheel: wheel URL, snapshot?: URL, strings: {msgid: text}}
//   {type: "kept-snapshot", bytes: ArrayBuffer | null}  the snapshot as kept after a first visit, if it is
//   {type: "compute", id, request: {calc, instance, locale, texts | state}}
// Messages to the page:
//   {type: "progress", stage: "package" | "first"}   Pyodide is up / the package is imported
//   {type: "ready"} | {type: "failed", reason}
//   {type: "result", id, result}                      the JSON answer of calculators.ui.handle
// Computations sent before "ready" wait for it (the page sends its first ones with "init"):
// they run one at a time, the waiting ones at once when Python is up.

let handle = null; // Promise of calculators.ui.handle (a Python callable)

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

const GZIP_MAGIC = [0x1f, 0x8b];

// The snapshot's raw bytes as the service worker keeps them after a first visit (no unpacking,
// sitebuild/service_worker.js): the page reads them from Cache Storage while this worker starts,
// and sends them ({type: "kept-snapshot", bytes: ArrayBuffer | null}, transferred, not copied).
let resolveKept;
const keptByPage = new Promise((resolve) => {
  resolveKept = resolve;
});

/** The snapshot's raw bytes: as the page found them kept, else downloaded and gunzipped here. */
async function snapshotBytes(url) {
  const kept = await keptByPage;
  return kept ? new Uint8Array(kept) : downloadSnapshot(url);
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

/** The snapshot downloaded and gunzipped, unless the host already sent it decoded. */
async function downloadSnapshot(url) {
  const packed = new Uint8Array(await fetchBytes(url));
  if (packed[0] !== GZIP_MAGIC[0] || packed[1] !== GZIP_MAGIC[1]) return packed; // a host that set Content-Encoding
  if (typeof DecompressionStream !== "function") throw new Error("this browser has no DecompressionStream");
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"));
  try {
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (err) {
    throw new Error(`${url} does not unpack (${(err && err.message) || err}): cut short or not gzip`);
  }
}

/** Pyodide from the snapshot (bytes promised); null (and one console line) when it cannot be used. */
async function restore(loadPyodide, options, bytes, url) {
  try {
    const py = await loadPyodide({ ...options, _loadSnapshot: bytes });
    // The snapshot froze the random state of its build: every worker must get its own.
    py.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()");
    return py;
  } catch (err) {
    console.info("calculators: the Pyodide snapshot could not be used, booting without it:", String((err && err.message) || err));
    forgetKeptSnapshot(url);
    return null;
  }
}

/** The wheel's files into site-packages: no micropip, no index, nothing but our own files. */
async function installWheel(py, wheelBytes) {
  const sitePackages = py.runPython("import sysconfig; sysconfig.get_path('purelib')");
  py.unpackArchive(await wheelBytes, "wheel", { extractDir: sitePackages });
  py.runPython("import importlib; importlib.invalidate_caches()");
}

async function boot({ pyodide: pyodideURL, wheel, snapshot, strings }) {
  // The wheel downloads while Pyodide starts; it is small and needed only at the end.
  const wheelBytes = fetchBytes(wheel);
  wheelBytes.catch(() => {}); // a failure is reported where it is awaited
  // The snapshot too: loadPyodide fetches the WebAssembly meanwhile and waits for both.
  const snapshotPromise = snapshot ? snapshotBytes(snapshot) : null;
  if (snapshotPromise) snapshotPromise.catch(() => {}); // reported by restore()
  // Pyodide's own module (1.2 MB of JavaScript), loaded alongside its loader rather than after it:
  // loadPyodide imports the same URL and gets this module.
  import(`${pyodideURL}pyodide.asm.mjs`).catch(() => {}); // a failure is reported by loadPyodide
  const { loadPyodide } = await import(new URL("pyodide.mjs", pyodideURL).href);
  const options = { indexURL: pyodideURL, stdout: () => {}, stderr: (line) => console.warn(line) };
  const restored = snapshotPromise && (await restore(loadPyodide, options, snapshotPromise, snapshot));
  const py = restored || (await loadPyodide(options));
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
  const ui = py.pyimport("calculators.ui");
  ui.install_strings(JSON.stringify(strings));
  postMessage({ type: "progress", stage: "first" });
  return ui.handle;
}

function compute(pyHandle, id, request) {
  let result;
  try {
    result = JSON.parse(pyHandle(JSON.stringify(request)));
  } catch (err) {
    // handle() catches Python errors itself; this is the FFI failing. No message for the reader
    // beyond "cannot be computed": the page keeps its last good result.
    result = { ok: false, errors: {}, html: "", chart: "", state: {}, failure: "", debug: String(err) };
  }
  postMessage({ type: "result", id, result });
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "kept-snapshot") {
    resolveKept(message.bytes || null);
  } else if (message.type === "init" && handle === null) {
    handle = boot(message);
    handle.then(
      () => postMessage({ type: "ready" }),
      (err) => postMessage({ type: "failed", reason: String((err && err.message) || err) }),
    );
  } else if (message.type === "compute" && handle !== null) {
    handle.then((pyHandle) => compute(pyHandle, message.id, message.request), () => {});
  }
};
