// The site's service worker: the calculators' runtime, kept for the next visit and for offline.
//
// The build (sitebuild/service_worker.py) writes this file to the site root as
// calc-sw.js, preceded by one line, `const PRECACHE = {version, urls, snapshot,
// pages, offline}`:
// - urls: the versioned URLs (relative to the site root) of exactly what the
//   calculators need, Pyodide's core files, the wheel, the snapshot, the module
//   that unpacks it and the two scripts. Every one carries a version or content
//   digest in its path or query, so a cached copy is never stale; `version` is a
//   digest of the list and of this code, and names the runtime's cache.
// - pages: every page of this build (its path from the site root) and a digest
//   of its HTML, so that after a deployment the pages kept for offline reading
//   are checked: unchanged ones stay, changed ones are fetched again, removed
//   ones go.
// - offline: per language root ("", "en/", …) the words of the page shown for a
//   page that is not kept when the reader is offline.
//
// The page (docs/assets/calculators.js) registers it only once a calculator
// has started Python there and it is up, when the page is idle: it never
// competes with the first paint or with Python's start, and a reader who
// never reaches a calculator downloads nothing for it. At the site root its
// scope covers every language (/, /en/, /da/, /it/).
//
// Requests: the precached URLs come from the cache (network if missing). An
// older build's runtime (a tab opened before a deployment) comes from its
// cache, which is kept until no page that was open at the deployment is left
// (then it is dropped: a runtime is 30 MB). Pages go to the network first,
// revalidated ("no-cache": a host's heuristic freshness would otherwise show a
// returning reader the old page), and fall back to the last copy seen, so an
// offline visit to a page read before still shows it, with working calculators;
// a page never read shows a short page in the site's language that says so.
// Same-origin styles, scripts and images are kept the same way. The page that
// registers the worker was loaded before it, so it sends its own URL and those
// of its files ("keep-page"); they are stored from the browser's HTTP cache.
// Nothing else is stored: no page is fetched that the reader did not open.

/* global PRECACHE */
const SCOPE = self.registration.scope;
const RUNTIME_CACHE = `calc-runtime-${PRECACHE.version}`;
const PAGES_CACHE = "calc-pages"; // not versioned: kept pages outlive a deployment (see "activate")
const META_CACHE = "calc-meta";
const META_URL = new URL("calc-sw-meta.json", SCOPE).href; // which pages still use an older runtime
const RUNTIME_URLS = new Set(PRECACHE.urls.map((path) => new URL(path, SCOPE).href));
const PAGE_DESTINATIONS = new Set(["document", "style", "script", "image", "font", "manifest"]);
// The runtime of any build: its versioned folders and scripts (an older build's are served from its cache).
const RUNTIME_PATH = /\/assets\/(pyodide|calculators)\/|\/assets\/(calculators\.js|calc-worker\.js|snapshot-pages\.mjs)\?v=/;

// Versioned URLs never change: a copy the page just loaded (HTTP cache) is as good as a new one.
const fromHttpCache = (url) => new Request(url, { cache: "force-cache" });

/** A page rather than a file: the site's pages are folders (".../decode/") or .html files. */
function isPageURL(url) {
  const path = new URL(url).pathname;
  return path.endsWith("/") || path.endsWith(".html");
}

/** A page's address as kept: without its query (calculator state) or fragment. */
function pageKey(url) {
  const u = new URL(url);
  return u.origin + u.pathname;
}

/**
 * The snapshot is kept gunzipped, under "<its URL>?raw", where the calculators' worker looks first:
 * reading its 15 MB page map back is faster than gunzipping 6 MB on every visit. Where this browser
 * cannot unpack, the packed file is kept as it is.
 */
async function keepSnapshot(cache, url) {
  if ((await cache.match(`${url}?raw`)) || (await cache.match(url))) return; // kept by this version's last install
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

async function keepRuntime() {
  const cache = await caches.open(RUNTIME_CACHE);
  const snapshot = PRECACHE.snapshot && new URL(PRECACHE.snapshot, SCOPE).href;
  const missing = [];
  for (const url of RUNTIME_URLS) {
    if (url !== snapshot && !(await cache.match(url))) missing.push(fromHttpCache(url));
  }
  // A new build whose runtime did not change (only pages did) finds it kept and downloads nothing.
  await Promise.all([cache.addAll(missing), snapshot && keepSnapshot(cache, snapshot)]);
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepRuntime().then(() => self.skipWaiting()));
});

// ------------------------------------------------------------------ after a deployment

async function readMeta() {
  const kept = await caches.match(META_URL, { cacheName: META_CACHE });
  try {
    return kept ? await kept.json() : {};
  } catch (err) {
    return {};
  }
}

async function writeMeta(meta) {
  const cache = await caches.open(META_CACHE);
  await cache.put(META_URL, new Response(JSON.stringify(meta), { headers: { "Content-Type": "application/json" } }));
}

/**
 * Older runtimes, each kept while a page that was open when it was replaced is still open: that page
 * (its calculators started or not) asks for the runtime it was built with, which the host may no
 * longer have. Once none of them is left, the runtime's cache goes.
 */
async function pruneOldRuntimes(replacing = false) {
  const names = (await caches.keys()).filter((name) => name.startsWith("calc-runtime-") && name !== RUNTIME_CACHE);
  const meta = await readMeta();
  const open = new Set((await self.clients.matchAll({ type: "window", includeUncontrolled: true })).map((c) => c.id));
  const next = {};
  for (const name of names) {
    const users = replacing && !meta[name] ? [...open] : (meta[name] || []).filter((id) => open.has(id));
    if (users.length === 0) await caches.delete(name);
    else next[name] = users;
  }
  await writeMeta(next);
}

async function digest(buffer) {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(bytes.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The pages kept for offline reading, against this build's list: an unchanged page stays, a changed
 * one is fetched again (the worker activates online: it was just downloaded), a page the build no
 * longer has goes. The files they use (styles, scripts, images) stay: most are named by their content.
 */
async function checkKeptPages() {
  const cache = await caches.open(PAGES_CACHE);
  const pages = PRECACHE.pages || {};
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    if (!url.href.startsWith(SCOPE)) continue;
    if (!isPageURL(url.href)) continue;
    const path = url.pathname.slice(new URL(SCOPE).pathname.length);
    if (url.search || !Object.prototype.hasOwnProperty.call(pages, path)) { // kept with a query by an older worker, or gone
      await cache.delete(request);
      continue;
    }
    const kept = await cache.match(request);
    if (kept && (await digest(await kept.clone().arrayBuffer())) === pages[path]) continue;
    try {
      const response = await fetch(url.href, { cache: "no-cache" });
      if (response.ok && !response.redirected) await cache.put(pageKey(url.href), response);
    } catch (err) {
      // offline after all: the copy the reader read stays until the next check
    }
  }
}

/** Earlier versions of this worker kept pages in a cache per build: their pages move to the one cache. */
async function moveVersionedPages() {
  const target = await caches.open(PAGES_CACHE);
  for (const name of await caches.keys()) {
    if (!name.startsWith("calc-pages-")) continue;
    const old = await caches.open(name);
    for (const request of await old.keys()) {
      const response = await old.match(request);
      if (response) await target.put(isPageURL(request.url) ? pageKey(request.url) : request.url, response);
    }
    await caches.delete(name);
  }
}

self.addEventListener("activate", (event) => {
  event.waitUntil(
    moveVersionedPages()
      .then(() => self.clients.claim())
      .then(() => pruneOldRuntimes(true))
      .then(() => checkKeptPages()),
  );
});

// ------------------------------------------------------------------ requests

/** Same-origin, not a runtime (kept already, or an older build's, never again needed). */
function isPageFile(url) {
  return url.startsWith(SCOPE) && !RUNTIME_URLS.has(url) && !RUNTIME_PATH.test(url);
}

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type !== "keep-page" || !Array.isArray(message.urls)) return;
  const urls = message.urls.filter((url) => typeof url === "string" && isPageFile(url));
  event.waitUntil(
    caches.open(PAGES_CACHE).then((cache) =>
      Promise.all(urls.map((url, i) => cache.add(new Request(i === 0 ? pageKey(url) : url, { cache: "force-cache" })).catch(() => {}))),
    ),
  );
});

async function fromRuntimeCache(request) {
  const cached = await caches.match(request.url, { cacheName: RUNTIME_CACHE });
  return cached || fetch(request);
}

/** An older build's runtime, from the cache kept for the pages still open on it, else the network. */
async function fromAnyRuntimeCache(request) {
  for (const name of await caches.keys()) {
    if (!name.startsWith("calc-runtime-")) continue;
    const cached = await caches.match(request.url, { cacheName: name });
    if (cached) return cached;
  }
  return fetch(request);
}

function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The language root ("", "en/", …) a URL belongs to, and its offline words. */
function offlineWords(url) {
  const path = url.slice(SCOPE.length);
  const roots = Object.keys(PRECACHE.offline || {}).filter((root) => root && path.startsWith(root));
  const root = roots.sort((a, b) => b.length - a.length)[0] || "";
  return { root, words: (PRECACHE.offline || {})[root] || { lang: "en", title: "Offline", text: "", kept: "", home: "" } };
}

/** The page for a page that is not kept, offline: what is unavailable, and what can be read instead. */
async function offlinePage(url) {
  const { root, words } = offlineWords(url);
  const cache = await caches.open(PAGES_CACHE);
  const links = [];
  for (const request of await cache.keys()) {
    if (!request.url.startsWith(SCOPE) || !isPageURL(request.url)) continue;
    const path = request.url.slice(SCOPE.length);
    const inLanguage = root ? path.startsWith(root) : !Object.keys(PRECACHE.offline || {}).some((r) => r && path.startsWith(r));
    if (!inLanguage) continue;
    const html = await (await cache.match(request)).text();
    const title = (html.match(/<title>([^<]*)<\/title>/) || [])[1] || path || "/";
    links.push(`<li><a href="${escapeHTML(request.url)}">${title}</a></li>`); // the title is the page's own, already escaped
  }
  const list = links.length ? `<p>${escapeHTML(words.kept)}</p><ul>${links.join("")}</ul>` : "";
  const body = `<!doctype html><html lang="${escapeHTML(words.lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHTML(words.title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:2em auto;padding:0 1em;color:#222;background:#fff}
@media (prefers-color-scheme:dark){body{color:#ddd;background:#1e2129}a{color:#8aa8ff}}</style></head>
<body><main><h1>${escapeHTML(words.title)}</h1><p>${escapeHTML(words.text)}</p>${list}
<p><a href="${escapeHTML(url)}">${escapeHTML(words.retry)}</a></p></main></body></html>`;
  return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

async function networkFirst(request, event) {
  const navigation = request.mode === "navigate";
  try {
    // A page is revalidated with the host on every visit: without it, a host that sends no
    // Cache-Control lets the browser show the old page for a while after a deployment.
    const response = navigation ? await fetch(request.url, { cache: "no-cache", credentials: "same-origin" }) : await fetch(request);
    if (navigation && response.redirected) return Response.redirect(response.url, 302); // "/en/decode" -> "/en/decode/"
    if (response.ok && response.type === "basic") {
      const copy = response.clone();
      event.waitUntil(caches.open(PAGES_CACHE).then((cache) => cache.put(navigation ? pageKey(request.url) : request, copy)));
    }
    return response;
  } catch (err) {
    // A page's state lives in its query string (shared calculator inputs): any copy of the page will do.
    const cached = await caches.match(navigation ? pageKey(request.url) : request, { cacheName: PAGES_CACHE, ignoreVary: true, ignoreSearch: navigation });
    if (cached) return cached;
    if (navigation) return offlinePage(request.url);
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  if (RUNTIME_URLS.has(request.url)) {
    event.respondWith(fromRuntimeCache(request));
  } else if (RUNTIME_PATH.test(request.url)) {
    event.respondWith(fromAnyRuntimeCache(request));
  } else if (PAGE_DESTINATIONS.has(request.destination) && isPageFile(request.url)) {
    event.respondWith(networkFirst(request, event));
    if (request.mode === "navigate") event.waitUntil(pruneOldRuntimes()); // a page left: its old runtime may go
  }
});
