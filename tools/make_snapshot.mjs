// Make the calculators' Pyodide memory snapshot: Python with the package imported, frozen.
//
// Usage: node tools/make_snapshot.mjs --wheel PATH.whl --out SNAPSHOT.gz
//
// Why: a bare Pyodide boot spends seconds initialising the interpreter and
// importing the standard library and our package. Pyodide 314 can dump its
// WebAssembly heap once that is done (loadPyodide({_makeSnapshot: true}) and
// makeMemorySnapshot()) and start from the dump later (loadPyodide({_loadSnapshot})),
// which takes a fraction of the time. The worker (docs/assets/calc-worker.js)
// restores it; sitebuild/snapshot.py runs this script once per content digest.
//
// What the private API imposes (read in node_modules/pyodide/pyodide.asm.mjs):
//   * the dump is tied to the exact build (BUILD_ID in its header): it is made
//     from the very node_modules/pyodide the site serves;
//   * only the heap is saved, not the virtual file system: the wheel's files
//     are gone after a restore. Every module of the package is imported and
//     its data loaded before the dump, and the restored dump must answer the
//     probe without the files, so the worker answers at once and unpacks the
//     wheel after its first answers (for tracebacks and later reads);
//   * a heap grown past its initial size does not restore: checked below;
//   * random state is frozen in the dump: the worker reseeds after a restore.
// Before writing, the dump is restored here, from its page map, and must answer
// a request exactly as the interpreter it was taken from did.
//
// Written as a gzipped page map (docs/assets/snapshot-pages.mjs): the heap
// without its empty pages, half the bytes to unpack in the browser.
//
// stdout: one JSON line {raw, pages, gzip, ms: {boot, prepare, snapshot, verify, gzip}}.
// Exit 1 with a message on stderr when any step fails.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { packPages, unpackPages } from "../docs/assets/snapshot-pages.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PYODIDE_DIR = join(REPO_ROOT, "node_modules", "pyodide") + "/";
const INITIAL_HEAP = 30 * 1024 * 1024; // Pyodide's initial memory; a larger dump fails to restore
const GZIP_LEVEL = 6; // 6.3 MB in 0.4 s; level 9 saves 1 % for four times the time

// What the dump holds: the package and its data imported, each calculator run
// once (so the first answer in the browser does not pay for first-call work).
// Every module of the wheel is imported: the wheel holds exactly what the browser
// imports (pyproject.toml leaves the build-only calculators.article out), and after
// a restore the worker answers before it has put the package's files back (a snapshot
// has no file system), so nothing may be left to import.
const PREPARE = `
import importlib, json, pkgutil
importlib.invalidate_caches()
import calculators
for _info in pkgutil.walk_packages(calculators.__path__, "calculators."):
    importlib.import_module(_info.name)
from calculators.data import catalog
from calculators.ui import worker
catalog.load()
for _name in worker.CALCULATORS:
    worker.evaluate(_name, worker.default_texts(_name, "en"), "en", lambda m: m)
`;
// The request the dump must answer as its source interpreter did.
const PROBE = `
from calculators.ui import worker
worker.handle(json.dumps({"calc": "decode", "instance": "decode", "locale": "da",
                          "texts": dict(worker.default_texts("decode", "da"), batch="16")}))
`;

function fail(message) {
  process.stderr.write(`make_snapshot: ${message}\n`);
  process.exit(1);
}

function installWheel(py, wheelBytes) {
  const sitePackages = py.runPython("import sysconfig; sysconfig.get_path('purelib')");
  py.unpackArchive(wheelBytes, "wheel", { extractDir: sitePackages });
  py.runPython("import importlib; importlib.invalidate_caches()");
}

async function main() {
  const { values } = parseArgs({ options: { wheel: { type: "string" }, out: { type: "string" } } });
  if (!values.wheel || !values.out) fail("usage: node tools/make_snapshot.mjs --wheel PATH.whl --out SNAPSHOT.gz");
  const wheel = new Uint8Array(readFileSync(values.wheel));
  const { loadPyodide } = await import(PYODIDE_DIR + "pyodide.mjs");
  const quiet = { indexURL: PYODIDE_DIR, stdout: () => {}, stderr: (line) => process.stderr.write(`${line}\n`) };
  const ms = {};
  let t = performance.now();
  const py = await loadPyodide({ ...quiet, _makeSnapshot: true });
  ms.boot = performance.now() - t;
  t = performance.now();
  installWheel(py, wheel);
  py.runPython(PREPARE);
  const expected = py.runPython(PROBE);
  ms.prepare = performance.now() - t;
  const heap = py._module.HEAP8.length;
  if (heap > INITIAL_HEAP) fail(`the heap grew to ${heap} bytes, past the initial ${INITIAL_HEAP}: such a dump does not restore`);
  t = performance.now();
  const raw = py.makeMemorySnapshot();
  const pages = packPages(raw);
  ms.snapshot = performance.now() - t;
  t = performance.now();
  // Without the wheel's files, as the worker answers its first requests (docs/assets/calc-worker.js).
  const restored = await loadPyodide({ ...quiet, _loadSnapshot: unpackPages(pages) });
  const got = restored.runPython("import json\n" + PROBE);
  if (got !== expected) fail(`the restored interpreter answers differently:\n${got}\n!=\n${expected}`);
  ms.verify = performance.now() - t;
  t = performance.now();
  const gz = gzipSync(pages, { level: GZIP_LEVEL });
  ms.gzip = performance.now() - t;
  writeFileSync(values.out, gz);
  for (const key of Object.keys(ms)) ms[key] = Math.round(ms[key]);
  process.stdout.write(JSON.stringify({ raw: raw.length, pages: pages.length, gzip: gz.length, ms }) + "\n");
}

main().catch((err) => fail(err?.stack ?? String(err)));
