// The site's service worker: the calculators' runtime, kept for the next visit and for offline.
//
// The build (sitebuild/service_worker.py) writes this file to the site root as
// calc-sw.js, preceded by one line, `const PRECACHE = {version, urls}`: the
// versioned URLs (relative to the site root) of exactly what the calculators
// need, Pyodide's core files, the wheel, the snapshot, the module that
// unpacks it and the two scripts.
// Every one carries a version or content digest in its path or query, so a
// cached copy is never stale; a new build is a new PRECACHE.version, a new
// cache, and the old one is dropped when the new worker activates.
//
// The page (docs/assets/calculators.js) registers it only once a calculator
// has started Python there and it is up, when the page is idle: it never
// competes with the first paint or with Python's start, and a reader who
// never reaches a calculator downloads nothing for it. At the site root its
// scope covers every language (/, /en/, /da/, /it/).
//
// Requests: the precached URLs come from the cache (network if missing);
// pages and their same-origin styles, scripts and images go to the network
// first and fall back to the last copy seen, so an offline visit to a page
// read before still shows it, with working calculators. The page that
// registers the worker was loaded before it, so it sends its own URL and
// those of its files ("keep-page"); they are stored from the browser's HTTP
// cache. Nothing else is stored: no page is fetched that the reader did not open.

/* global PRECACHE */
const RUNTIME_CACHE = `calc-runtime-${PRECACHE.version}`;
const PAGES_CACHE = `calc-pages-${PRECACHE.version}`;
const RUNTIME_URLS = new Set(PRECACHE.urls.map((path) => new URL(path, self.registration.scope).href));
const PAGE_DESTINATIONS = new Set(["document", "style", "script", "image", "font", "manifest"]);

// Versioned URLs never change: a copy the page just loaded (HTTP cache) is as good as a new one.
const fromHttpCache = (url) => new Request(url, { cache: "force-cache" });

/**
 * The snapshot is kept gunzipped, under "<its URL>?raw", where the calculators' worker looks first:
 * reading its 15 MB page map back is faster than gunzipping 6 MB on every visit. Where this browser
 * cannot unpack, the packed file is kept as it is.
 */
async function keepSnapshot(cache, url) {
  const response = await fetch(fromHttpCache(url));
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const packed = new Uint8Array(await response.arrayBuffer());
  if (typeof DecompressionStream !== "function" || packed[0] !== 0x1f || packed[1] !== 0x8b) {
    await cache.put(url, new Response(packed, { headers: response.headers }));
    return;
  }
  const raw = new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"));
  await cache.put(`${url}?raw`, new Response(await new Response(raw).blob()));
}

self.addEventListener("install", (event) => {
  const snapshot = PRECACHE.snapshot && new URL(PRECACHE.snapshot, self.registration.scope).href;
  const files = [...RUNTIME_URLS].filter((url) => url !== snapshot).map(fromHttpCache);
  event.waitUntil(
    caches
      .open(RUNTIME_CACHE)
      .then((cache) => Promise.all([cache.addAll(files), snapshot && keepSnapshot(cache, snapshot)]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  const keep = new Set([RUNTIME_CACHE, PAGES_CACHE]);
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("calc-") && !keep.has(n)).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

/** Same-origin, not the runtime (kept already), not an older runtime (never again needed). */
function isPageFile(url) {
  return url.startsWith(self.registration.scope) && !RUNTIME_URLS.has(url) && !/\/assets\/(pyodide|calculators)\//.test(url);
}

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type !== "keep-page" || !Array.isArray(message.urls)) return;
  const urls = message.urls.filter((url) => typeof url === "string" && isPageFile(url));
  event.waitUntil(
    caches.open(PAGES_CACHE).then((cache) =>
      Promise.all(urls.map((url) => cache.add(new Request(url, { cache: "force-cache" })).catch(() => {}))),
    ),
  );
});

async function fromRuntimeCache(request) {
  const cached = await caches.match(request.url, { cacheName: RUNTIME_CACHE });
  return cached || fetch(request);
}

async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") {
      const copy = response.clone();
      caches.open(PAGES_CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  } catch (err) {
    // A page's state lives in its query string (shared calculator inputs): any copy of the page will do.
    const ignoreSearch = request.mode === "navigate";
    const cached = await caches.match(request, { cacheName: PAGES_CACHE, ignoreVary: true, ignoreSearch });
    if (cached) return cached;
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(self.registration.scope)) return;
  if (RUNTIME_URLS.has(request.url)) {
    event.respondWith(fromRuntimeCache(request));
  } else if (PAGE_DESTINATIONS.has(request.destination) && isPageFile(request.url)) {
    event.respondWith(networkFirst(request));
  }
});
