"""The reading copy: every string a reader can see, per language and page, as plain text.

Reviewers read this instead of the sources, and a diff of two reading copies
shows what a change did to the visible text. Read from the built site (so it
is what the theme, the macros and the checks produced): the page's text, the
attributes a reader meets (title tooltips, aria labels, alt texts, input
values and placeholders), the chart labels (SVG text), and the explanations
the popovers open (the page's provenance JSON, written out as the popover
shows it). What the calculators show only after an input (another model or
device, every error message, a pasted config.json) comes from the
calculators' own code (sitebuild/calc_text.py), per language, with a heading
per case that names the input.

Layout: OUT_DIR/<lang>/<page>.txt (German, the site's root, under de/; the
redirects the site keeps at /de/ are left out), and
OUT_DIR/<lang>/calculator-messages.txt, and OUT_DIR/<lang>/example-messages.txt: every variant of the
running example's sentences and the example control's messages (sitebuild/example_text.py). Stable order, no dates of the run:
`diff -r` of two copies shows what a change did to the text. `make text`
builds the site when a source is newer than it and writes reading/.

Usage: python tools/reading_copy.py SITE_DIR OUT_DIR
"""

from __future__ import annotations

import json
import pathlib
import sys
from html.parser import HTMLParser

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from calculators.data import catalog  # noqa: E402
from sitebuild import calc_text, example_text  # noqa: E402
from sitebuild.strings import LANGS, SOURCE_LANG, Strings  # noqa: E402

BLOCK = {"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "section", "article",
         "header", "footer", "nav", "figure", "figcaption", "blockquote", "pre", "details", "summary", "br",
         "label", "option", "dt", "dd", "th", "td", "title", "text", "caption", "aside", "form", "select"}
ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")
SKIP = {"script", "style", "template"}


class _Text(HTMLParser):
    """The visible text of a page, one block a line; attributes a reader meets on lines of their own."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list = []
        self.current: list = []
        self.skip = 0
        self.json_id: str | None = None
        self.json: dict = {}
        self.attrs: list = []

    def _flush(self):
        text = " ".join("".join(self.current).split())
        if text:
            self.lines.append(text)
        self.current = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in SKIP:
            self.skip += 1
            if tag == "script" and a.get("type") == "application/json":
                self.json_id = a.get("id") or "json"
            return
        if tag in BLOCK:
            self._flush()
        for name in ATTRIBUTES:
            if a.get(name):
                self.attrs.append(f"[{name}] {' '.join(a[name].split())}")
        if tag in ("td", "th"):
            self.current.append(" | ")

    def handle_endtag(self, tag):
        if tag in SKIP:
            self.skip = max(0, self.skip - 1)
            self.json_id = None
            return
        if tag in BLOCK:
            self._flush()

    def handle_data(self, data):
        if self.skip:
            if self.json_id:
                self.json[self.json_id] = self.json.get(self.json_id, "") + data
            return
        self.current.append(data)


def _explanations(raw: str) -> list:
    """The popovers of a page, as the script shows them (docs/assets/explain.js)."""
    data = json.loads(raw)
    ui, src = data["ui"], data["src"]
    out = []

    def inputs(refs, indent):
        for ref in refs:
            s = src[ref]
            head = f"{s['name']} — {s['title']}" if s["name"] else s["title"]   # as docs/assets/explain.js shows it
            out.append(f"{indent}- {head}, {ui['accessed']} {s['accessed']}; {ui['confidence']}: {s['confidence']}")

    def terms(items, indent):
        for t in items:
            out.append(f"{indent}- {t['value']} — {t['words']}")
            if t.get("expression"):
                out.append(f"{indent}  {ui['formula']}: {t['expression']}")
            inputs(t.get("inputs", ()), indent + "  ")
            if t.get("assumption"):
                out.append(f"{indent}  ({t['assumption']})")

    for fid, fig in data["figs"].items():
        out.append(f"{fig['value']} — {fig['words']}")
        if fig.get("expression"):
            out.append(f"  {fig['expression']}")
        terms(fig.get("terms", ()), "  ")
        inputs(fig["inputs"], "  ")
        if fig.get("assumption"):
            out.append(f"  - {fig['assumption']}")
    return out


def page_text(html: str) -> str:
    p = _Text()
    p.feed(html)
    p._flush()
    parts = ["# text", *p.lines]
    if p.attrs:
        parts += ["", "# attributes", *dict.fromkeys(p.attrs)]
    if "fig-provenance" in p.json:
        parts += ["", "# explanations", *_explanations(p.json["fig-provenance"])]
    return "\n".join(parts) + "\n"


def page_target(rel: pathlib.PurePath) -> pathlib.PurePath | None:
    """Where a built page's text goes: "da/decode/index.html" -> "da/decode.txt", "index.html" -> "de/index.txt";
    None for what is not a page of a language (assets, the /de/ redirects)."""
    parts = rel.parts
    if parts[0] in ("assets", SOURCE_LANG):
        return None
    lang, rest = (parts[0], parts[1:]) if parts[0] in LANGS else (SOURCE_LANG, parts)
    name = "/".join(rest[:-1]) if rest[-1] == "index.html" and len(rest) > 1 else rest[-1].removesuffix(".html")
    return pathlib.PurePath(lang, f"{name}.txt")


def write(site: pathlib.Path, out: pathlib.Path, calculators: bool = True) -> int:
    """Write the reading copy of the site built in `site` to `out`; the number of files written."""
    n = 0
    for path in sorted(site.rglob("*.html")):
        target = page_target(path.relative_to(site))
        if target is None:
            continue
        (out / target).parent.mkdir(parents=True, exist_ok=True)
        (out / target).write_text(page_text(path.read_text(encoding="utf-8")), encoding="utf-8")
        n += 1
    if calculators:
        strings, cat = Strings(), catalog.load()
        for lang in LANGS:
            (out / lang).mkdir(parents=True, exist_ok=True)
            (out / lang / "calculator-messages.txt").write_text(calc_text.render(calc_text.cases(lang, strings)),
                                                                encoding="utf-8")
            tr = calc_text.translator(lang, strings)
            (out / lang / "example-messages.txt").write_text(calc_text.render(example_text.cases(lang, tr, cat)),
                                                             encoding="utf-8")
            n += 2
    return n


if __name__ == "__main__":
    site_dir, out_dir = (pathlib.Path(a) for a in sys.argv[1:3])
    print(f"{write(site_dir, out_dir)} files written to {out_dir}")
