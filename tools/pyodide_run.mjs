// Run Python code on Pyodide (in Node) with the calculators wheel installed.
//
// Usage: node tools/pyodide_run.mjs --wheel PATH.whl --code-file FILE.py [--snapshot SNAPSHOT.gz] [--extra PATH.zip]
//
// With --snapshot, Pyodide is restored from the build's memory snapshot
// (tools/make_snapshot.mjs) instead of booted, and the wheel unpacked after
// the restore, as the site's worker does: the parity test runs both ways.
// With --extra, a zip of more package files (the build-only calculators/article,
// which the wheel leaves out) is unpacked into site-packages after the wheel, so
// the parity test can compare the article's figures too.
//
// The parity tests use this to evaluate the same code on Pyodide's
// interpreter as on CPython. Contract:
//   * stdout carries exactly the value of the Python global RESULT (a str),
//     nothing else, so the caller can parse it without filtering;
//   * anything Python prints, and Pyodide's own startup chatter, goes to stderr;
//   * a Python exception prints its traceback to stderr and exits 1;
//   * bad usage or a missing/non-str RESULT exits 2.
//
// The runtime is the repository's own node_modules/pyodide (the one the site
// serves), found relative to this script, not the cwd, so the tests can run
// it from anywhere.

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { unpackPages } from "../docs/assets/snapshot-pages.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PYODIDE_DIR = join(REPO_ROOT, "node_modules", "pyodide");

/** Exit with a usage/harness error (not a Python error): code 2. */
function fail(message) {
  process.stderr.write(`pyodide_run: ${message}\n`);
  process.exit(2);
}

/** Parse --wheel and --code-file; both are required. */
function parseCli(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { wheel: { type: "string" }, "code-file": { type: "string" }, snapshot: { type: "string" }, extra: { type: "string" } },
      strict: true,
    }));
  } catch (err) {
    fail(err.message);
  }
  if (!values.wheel || !values["code-file"]) {
    fail("usage: node tools/pyodide_run.mjs --wheel PATH.whl --code-file FILE.py");
  }
  return { wheel: resolve(values.wheel), codeFile: resolve(values["code-file"]),
           snapshot: values.snapshot ? resolve(values.snapshot) : null, extra: values.extra ? resolve(values.extra) : null };
}

/** Read a file or exit 2 with a message that names it. */
function readOrFail(path, what, encoding) {
  try {
    return readFileSync(path, encoding);
  } catch (err) {
    fail(`cannot read ${what} ${path}: ${err.message}`);
  }
}

/** Load Pyodide from node_modules with every Python print routed to stderr. */
async function startPyodide(snapshot) {
  const moduleUrl = pathToFileURL(join(PYODIDE_DIR, "pyodide.mjs")).href;
  let loadPyodide;
  try {
    ({ loadPyodide } = await import(moduleUrl));
  } catch (err) {
    fail(`cannot load ${moduleUrl} (run "npm ci"?): ${err.message}`);
  }
  // stdout must stay reserved for RESULT, so both streams go to stderr.
  // The handlers are passed at load time because Pyodide may print during
  // startup, before setStdout() could be called.
  const toStderr = (line) => process.stderr.write(`${line}\n`);
  const options = { indexURL: `${PYODIDE_DIR}/`, stdout: toStderr, stderr: toStderr };
  if (snapshot) {
    const py = await loadPyodide({ ...options, _loadSnapshot: unpackPages(gunzipSync(snapshot)) });
    py.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()"); // as the worker does
    return py;
  }
  return loadPyodide(options);
}

/** Unpack the wheel (or a zip of package files) straight into site-packages (no micropip: offline). */
function installWheel(pyodide, wheelBytes, format = "wheel") {
  // unpackArchive defaults to the *working directory* (/home/pyodide), not
  // site-packages, so the target must be given explicitly.
  const sitePackages = pyodide.runPython(
    "import sysconfig; sysconfig.get_path('purelib')",
  );
  // A Node Buffer is rejected ("Unknown typed array type 'Buffer'"): Pyodide
  // dispatches on the constructor name, so pass a plain Uint8Array view.
  const bytes = new Uint8Array(wheelBytes.buffer, wheelBytes.byteOffset, wheelBytes.byteLength);
  pyodide.unpackArchive(bytes, format, { extractDir: sitePackages });
  // The import system caches directory listings taken at startup; without
  // this, the freshly unpacked package may be invisible to `import`.
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
}

/** Run the user code; return RESULT or exit 1 with the Python traceback. */
async function runCode(pyodide, code, filename) {
  const globals = pyodide.globals.get("dict")();
  globals.set("__name__", "__main__");
  try {
    // A real filename makes tracebacks quote the offending source lines.
    await pyodide.runPythonAsync(code, { globals, filename });
  } catch (err) {
    // PythonError.message is the formatted Python traceback.
    process.stderr.write(`${err.message ?? err}\n`);
    process.exit(1);
  }
  const result = globals.has("RESULT") ? globals.get("RESULT") : undefined;
  if (typeof result !== "string") {
    const got = result === undefined ? "None or nothing" : typeof result;
    fail(`the code must set RESULT to a str (got ${got})`);
  }
  return result;
}

async function main() {
  const { wheel, codeFile, snapshot, extra } = parseCli(process.argv.slice(2));
  const wheelBytes = readOrFail(wheel, "wheel", undefined);
  const code = readOrFail(codeFile, "code file", "utf8");
  const pyodide = await startPyodide(snapshot && readOrFail(snapshot, "snapshot", undefined));
  installWheel(pyodide, wheelBytes);
  if (extra) installWheel(pyodide, readOrFail(extra, "extra zip", undefined), "zip");
  const result = await runCode(pyodide, code, codeFile);
  // Exit only once the (possibly large) RESULT has been flushed to the pipe.
  process.stdout.write(result, () => process.exit(0));
}

main().catch((err) => {
  process.stderr.write(`pyodide_run: ${err?.stack ?? err}\n`);
  process.exit(2);
});
