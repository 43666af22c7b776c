"""`make serve`: `mkdocs serve`, restarted when the Python it runs changes, answering even while it cannot start.

`mkdocs serve` rebuilds the pages after an edit of docs/, locales/, the
catalog's data or the theme overrides (mkdocs.yml `watch:`), but it imports
the site's Python (calculators/, sitebuild/, hooks/, macros.py) once: an edit
there needs a new process. This script runs `mkdocs serve` as a child and
starts a new one when a .py file changes. If the child cannot start (a syntax
error, a catalog that does not load), it serves a page on the same port that
shows the error, until the next edit; a tab left open reloads by itself.

Errors of a rebuild (a hand-typed number, a broken placeholder) do not stop
the server: hooks/checks.py shows them at the top of every page, and macro
errors show in the page (SITE_MACRO_ERRORS_FAIL=false, set here).

Usage: python tools/serve.py [--port 8000] [--builder CMD] [-- extra mkdocs serve arguments]
(SITE_LANG=da in the environment builds one language, as `make serve SITE_LANG=da`.)
"""

from __future__ import annotations

import argparse
import html
import http.server
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
WATCHED = ("calculators", "sitebuild", "hooks")
POLL_S = 0.5
TAIL_LINES = 40


def python_stamps(root: pathlib.Path = ROOT) -> dict:
    """{path: (mtime, size)} of every .py file the site's build imports."""
    files = [root / "macros.py"] + [p for part in WATCHED for p in (root / part).rglob("*.py")]
    out = {}
    for p in files:
        try:
            st = p.stat()
        except OSError:
            continue
        out[str(p)] = (st.st_mtime_ns, st.st_size)
    return out


def error_page(lines: list) -> bytes:
    """What the browser shows while the site cannot be built: the error, and a reload once it can."""
    body = html.escape("\n".join(lines[-TAIL_LINES:]) or "mkdocs serve stopped without a message.")
    return (f"<!doctype html><meta charset='utf-8'><title>Build error</title>"
            f"<meta http-equiv='refresh' content='2'>"
            f"<h1>The site cannot be built</h1><p>Fix the error below and save; this page reloads by itself.</p>"
            f"<pre style='white-space:pre-wrap'>{body}</pre>").encode()


class _ErrorServer(http.server.ThreadingHTTPServer):
    allow_reuse_address = True


def _serve_error(port: int, page: bytes) -> _ErrorServer:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the standard library's name
            self.send_response(503)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    server = _ErrorServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run(port: int, builder: list, extra: list) -> int:
    env = {**os.environ, "SITE_MACRO_ERRORS_FAIL": "false"}
    command = [*builder, "serve", "-a", f"127.0.0.1:{port}", *extra]
    while True:
        stamps = python_stamps()
        child = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True, bufsize=1)
        tail: list = []

        def pump():
            for line in child.stderr:
                sys.stderr.write(line)
                tail.append(line.rstrip("\n"))
                del tail[:-TAIL_LINES]

        threading.Thread(target=pump, daemon=True).start()
        error_server = None
        try:
            while True:
                time.sleep(POLL_S)
                if python_stamps() != stamps:
                    print("serve: Python changed, starting mkdocs serve again", file=sys.stderr)
                    break
                if child.poll() is not None and error_server is None:
                    time.sleep(0.2)   # the last lines of its message
                    print(f"serve: mkdocs serve stopped (exit code {child.returncode}); "
                          f"http://127.0.0.1:{port}/ shows why until the next edit", file=sys.stderr)
                    error_server = _serve_error(port, error_page(tail))
        except KeyboardInterrupt:
            _stop(child)
            return 0
        finally:
            if error_server is not None:
                error_server.shutdown()
                error_server.server_close()
        _stop(child)


def _stop(child: subprocess.Popen) -> None:
    if child.poll() is None:
        child.send_signal(signal.SIGINT)
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--builder", default=f"{sys.executable} -m mkdocs",
                        help="the command that serves (ProperDocs: '.venv-properdocs/bin/python -m properdocs')")
    parser.add_argument("extra", nargs="*", help="more arguments for mkdocs serve (after --)")
    args = parser.parse_args(argv)
    return run(args.port, args.builder.split(), args.extra)


if __name__ == "__main__":
    raise SystemExit(main())
