// The calculators' Pyodide snapshot as a page map: the heap without its empty pages.
//
// Why: half of the 30 MiB heap Pyodide dumps (tools/make_snapshot.mjs) is
// 4 KiB pages of zeros. Left out, there is half as much to gunzip on a first
// visit (the largest single wait of a cold start, measured in Chromium) and
// half as much to keep in, and read back from, the service worker's cache on
// a repeat visit. The worker (docs/assets/calc-worker.js) unpacks the map
// into the heap Pyodide restores; the Node tools use the same two functions.
//
// Layout (little-endian): "CALCPGM1", u32 heap length, u32 page size, one bit
// per page (lowest bit first: the page holds a non-zero byte), then those
// pages in order; the last page may be short, like the heap's end.

const MAGIC = "CALCPGM1";
const PAGE = 4096;
export const HEAD = MAGIC.length + 8; // the bytes heapLength() needs

function view(bytes) {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The length of the heap a page map holds, from its first HEAD bytes; throws on anything else. */
export function heapLength(map) {
  if (map.length < HEAD || new TextDecoder().decode(map.subarray(0, MAGIC.length)) !== MAGIC) {
    throw new Error("not a snapshot page map");
  }
  return view(map).getUint32(MAGIC.length, true);
}

/** The heap (Uint8Array) as a page map (Uint8Array). */
export function packPages(heap) {
  const pages = Math.ceil(heap.length / PAGE);
  const bits = new Uint8Array(Math.ceil(pages / 8));
  const kept = [];
  for (let i = 0; i < pages; i++) {
    const page = heap.subarray(i * PAGE, (i + 1) * PAGE);
    if (page.some((byte) => byte !== 0)) {
      bits[i >> 3] |= 1 << (i & 7);
      kept.push(page);
    }
  }
  const out = new Uint8Array(HEAD + bits.length + kept.reduce((sum, page) => sum + page.length, 0));
  out.set(new TextEncoder().encode(MAGIC));
  view(out).setUint32(MAGIC.length, heap.length, true);
  view(out).setUint32(MAGIC.length + 4, PAGE, true);
  out.set(bits, HEAD);
  let at = HEAD + bits.length;
  for (const page of kept) {
    out.set(page, at);
    at += page.length;
  }
  return out;
}

/**
 * The heap a page map holds; throws on anything else (another format, cut short, too long).
 * Into `heap` when given (zeros, of heapLength(map)): the worker hands Pyodide that array before
 * the map has arrived, so that Pyodide prepares everything else meanwhile.
 */
export function unpackPages(map, heap = null) {
  const bytes = map instanceof Uint8Array ? map : new Uint8Array(map);
  const length = heapLength(bytes);
  const size = view(bytes).getUint32(MAGIC.length + 4, true);
  const pages = Math.ceil(length / size);
  const bits = bytes.subarray(HEAD, HEAD + Math.ceil(pages / 8));
  if (size === 0 || HEAD + Math.ceil(pages / 8) > bytes.length) throw new Error("the snapshot page map is cut short");
  if (heap && heap.length !== length) throw new Error("the snapshot page map is not for this heap");
  heap = heap || new Uint8Array(length); // zeros: only the kept pages are copied in
  let at = HEAD + bits.length;
  for (let i = 0; i < pages; i++) {
    if (!(bits[i >> 3] & (1 << (i & 7)))) continue;
    const end = Math.min((i + 1) * size, length);
    if (at + end - i * size > bytes.length) throw new Error("the snapshot page map is cut short");
    heap.set(bytes.subarray(at, at + end - i * size), i * size);
    at += end - i * size;
  }
  if (at !== bytes.length) throw new Error("the snapshot page map is longer than its pages");
  return heap;
}
