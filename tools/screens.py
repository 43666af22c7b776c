"""Screenshots of every page, in every language, at a phone's and a desktop's width, and what overflows.

    .venv/bin/python tools/screens.py site/ /tmp/screens            # every page, 390 and 1280 px
    .venv/bin/python tools/screens.py site/ /tmp/screens --pages decode,factcheck --widths 390

Serves a built site (tools/static_server.py), opens each page in headless Chromium
(calc_site.CHROMIUM), and writes per page and width a screenshot of the first screen
(`<lang>-<page>-<width>.png`) and of the whole page cut at --max-height pixels
(`…-full.png`). It prints, per page, whether the page scrolls sideways and every wide
table or chart that is neither inside the viewport nor in its own labelled scroller:
and every chart label that runs out of its drawing: the same rules as tests/test_pages_clean.py,
for looking at the pages rather than testing them.
Nothing is downloaded; no calculator is touched (so no Pyodide starts).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import calc_site  # noqa: E402
from static_server import StaticServer  # noqa: E402

LANGS = ("de", "en", "da", "it")
PAGES = ("index", "decode", "speed", "calculators", "glossary", "sources", "factcheck", "accuracy", "status", "about")

# What overflows: the page (sideways scroll), and tables and charts wider than the content column
# (720 px on a desktop, the screen less its margins on a phone) that are not in a scroller of their own,
# named (role="region" and a label), reachable by keyboard and showing its hint.
OVERFLOW = """() => {
  const vw = document.documentElement.clientWidth;
  const out = {sideways: document.documentElement.scrollWidth - vw, items: []};
  const content = document.querySelector('.md-content__inner').getBoundingClientRect();
  const [lo, hi] = [Math.max(0, content.left), Math.min(vw, content.right)];
  const labelled = (el) => {
    const box = el.closest('[data-scroller]');
    const hint = box && box.nextElementSibling;
    return box && box.getAttribute('role') === 'region' && (box.getAttribute('aria-label') || box.getAttribute('aria-labelledby'))
      && box.tabIndex === 0 && hint && hint.classList.contains('scroll-hint') && !hint.hidden ? box : null;
  };
  for (const el of document.querySelectorAll('.md-content table, .md-content figure.chart svg, .md-content .chart')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;                     // hidden (the other drawing of a chart)
    if (r.left >= lo - 0.5 && r.right <= hi + 0.5 && el.scrollWidth <= el.clientWidth + 1) continue;
    const box = labelled(el);
    const name = el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined ? '.' + el.className : '');
    out.items.push({name, width: Math.round(r.width), left: Math.round(r.left), scroller: box ? box.getAttribute('aria-label') : null});
  }
  out.clipped = CLIPPED_LABELS();
  return out;
}"""

# Chart labels that run out of their drawing (the viewBox clips them): the same rule as the tests.
CLIPPED = """() => {
  const out = [];
  for (const svg of document.querySelectorAll('figure.chart svg')) {
    if (svg.getBoundingClientRect().width === 0) continue;     // the drawing for the other width
    const box = svg.viewBox.baseVal;
    const toSvg = svg.getScreenCTM().inverse();
    for (const text of svg.querySelectorAll('text')) {
      const b = text.getBBox();
      if (b.width === 0) continue;
      // the label's corners in the drawing's units, its transform (a rotated axis title) applied
      const m = toSvg.multiply(text.getScreenCTM());
      const xs = [], ys = [];
      for (const [x, y] of [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]) {
        const q = new DOMPoint(x, y).matrixTransform(m);
        xs.push(q.x); ys.push(q.y);
      }
      const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      if (x0 < box.x - 0.5 || y0 < box.y - 0.5 || x1 > box.x + box.width + 0.5 || y1 > box.y + box.height + 0.5) {
        out.push(`${svg.closest('figure').id}: "${text.textContent}" at x ${x0.toFixed(0)}..${x1.toFixed(0)}, y ${y0.toFixed(0)}..${y1.toFixed(0)} of ${box.width} x ${box.height}`);
      }
    }
  }
  return out;
}"""
OVERFLOW = OVERFLOW.replace("CLIPPED_LABELS()", "(" + CLIPPED + ")()")


def shoot(site: pathlib.Path, out: pathlib.Path, pages, widths, max_height: int) -> list:
    from playwright.sync_api import sync_playwright
    out.mkdir(parents=True, exist_ok=True)
    report = []
    with StaticServer(site) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(calc_site.CHROMIUM), args=calc_site.CHROMIUM_ARGS)
        for width in widths:
            height = 844 if width < 600 else 900
            context = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
            page = context.new_page()
            for lang in LANGS:
                for name in pages:
                    path = ("" if name == "index" else f"{name}/") if lang == "de" else (f"{lang}/" if name == "index" else f"{lang}/{name}/")
                    page.goto(server.url(path), wait_until="load")
                    page.wait_for_timeout(150)
                    stem = f"{lang}-{name}-{width}"
                    page.screenshot(path=str(out / f"{stem}.png"))
                    full = page.evaluate("document.documentElement.scrollHeight")
                    page.screenshot(path=str(out / f"{stem}-full.png"), full_page=True,
                                    clip={"x": 0, "y": 0, "width": width, "height": min(full, max_height)})
                    found = page.evaluate(OVERFLOW)
                    report.append({"page": stem, **found})
            context.close()
        browser.close()
    return report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("site", type=pathlib.Path)
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--pages", default=",".join(PAGES))
    ap.add_argument("--widths", default="390,1280")
    ap.add_argument("--max-height", type=int, default=12000)
    args = ap.parse_args(argv)
    report = shoot(args.site, args.out, args.pages.split(","), [int(w) for w in args.widths.split(",")], args.max_height)
    bad = 0
    for r in report:
        loose = [i for i in r["items"] if not i["scroller"]]
        bad += bool(r["sideways"] > 0 or loose or r["clipped"])
        if r["sideways"] > 0 or r["items"] or r["clipped"]:
            side = f' the page scrolls sideways by {r["sideways"]} px;' if r["sideways"] > 0 else ""
            print(f'{r["page"]}:{side} {json.dumps(r["items"], ensure_ascii=False)}')
            for label in r["clipped"]:
                print(f'  clipped label: {label}')
    print(f"{len(report)} pages, {bad} with sideways scroll, a wide element outside a labelled scroller or a clipped chart label")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
