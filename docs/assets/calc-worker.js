// The calculators' Python, in a Web Worker so that the page never freezes.
//
// Runs the site's own `calculators` package (the wheel the build made) on
// Pyodide: every answer comes from calculators.ui.handle, the function the
// build used to pre-render the page, so browser and page print the same.
//
// Messages from the page:
//   {type: "init", pyodide: folder URL, wheel: wheel URL, strings: {msgid: text}}
//   {type: "compute", id, request: {calc, instance, locale, texts | state}}
// Messages to the page:
//   {type: "progress", stage: "package" | "first"}   Pyodide is up / the package is imported
//   {type: "ready"} | {type: "failed", reason}
//   {type: "result", id, result}                      the JSON answer of calculators.ui.handle
// Computations sent before "ready" wait for it; they run one at a time.

let handle = null; // Promise of calculators.ui.handle (a Python callable)

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

async function boot({ pyodide: pyodideURL, wheel, strings }) {
  // The wheel downloads while Pyodide starts; it is small and needed only at the end.
  const wheelBytes = fetchBytes(wheel);
  wheelBytes.catch(() => {}); // a failure is reported where it is awaited
  const { loadPyodide } = await import(new URL("pyodide.mjs", pyodideURL).href);
  const py = await loadPyodide({ indexURL: pyodideURL, stdout: () => {}, stderr: (line) => console.warn(line) });
  postMessage({ type: "progress", stage: "package" });
  // Unpack straight into site-packages: no micropip, no index, nothing but our own files.
  const sitePackages = py.runPython("import sysconfig; sysconfig.get_path('purelib')");
  py.unpackArchive(await wheelBytes, "wheel", { extractDir: sitePackages });
  py.runPython("import importlib; importlib.invalidate_caches()");
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
  if (message.type === "init" && handle === null) {
    handle = boot(message);
    handle.then(
      () => postMessage({ type: "ready" }),
      (err) => postMessage({ type: "failed", reason: String((err && err.message) || err) }),
    );
  } else if (message.type === "compute" && handle !== null) {
    handle.then((pyHandle) => compute(pyHandle, message.id, message.request), () => {});
  }
};
