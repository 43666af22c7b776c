"""A static HTTP server for a built site, on 127.0.0.1, for the browser tests and `make bench`.

Why not `python -m http.server`: browsers need the right MIME types for ES
modules (.mjs) and for WebAssembly streaming compilation (.wasm), and the
benchmark needs what a real host does for text files, gzip, to count the
bytes a page really transfers. It runs in a thread of the calling process.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import pathlib
import threading

MIME = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json",
        ".whl": "application/zip", ".zip": "application/zip", ".svg": "image/svg+xml", ".css": "text/css",
        ".html": "text/html; charset=utf-8", ".map": "application/json"}
COMPRESSIBLE = (".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".map")


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}
    gzip_text = False

    def log_message(self, *args):  # quiet: tests print what matters themselves
        pass

    def send_header(self, keyword, value):
        if keyword.lower() == "content-length":  # what the body of this response weighs on the wire
            self.server.sent.append((self.path.split("?")[0], int(value)))
        super().send_header(keyword, value)

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # revalidate: each test sees the current build
        super().end_headers()

    def send_head(self):
        """Like the base class, but text files are sent gzip-compressed when the client accepts it."""
        path = pathlib.Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        wants_gzip = self.gzip_text and "gzip" in self.headers.get("Accept-Encoding", "")
        if not wants_gzip or path.suffix not in COMPRESSIBLE or not path.is_file():
            return super().send_head()
        body = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A browser that drops a download (a closed test context) is no server error: stay quiet."""
        import sys
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class StaticServer:
    """`with StaticServer(site) as server: server.url("en/decode/")`."""

    def __init__(self, root: pathlib.Path, gzip_text: bool = False):
        handler = type("SiteHandler", (Handler,), {"gzip_text": gzip_text})
        self.httpd = _Server(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
        self.httpd.daemon_threads = True
        self.httpd.sent = []  # (path, body bytes) of every response, for the page-weight benchmark
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def sent(self) -> list:
        return self.httpd.sent

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_port}"

    def url(self, path: str = "") -> str:
        return f"{self.origin}/{path.lstrip('/')}"

    def __enter__(self) -> "StaticServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
