"""A data error while a hook loads is one line, not a traceback.

The checks and lints read the site's data as they are imported (catalog.toml,
serving.toml, the measurements). Whichever hook imports them first meets a
mistake in those files first, so each hook imports them inside
`one_line()`: the error becomes MkDocs' configuration error, printed as
file:line, entry, field and what to do. SITE_DEBUG=1 keeps the traceback.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

from calculators.data.sources import DataError


@contextmanager
def one_line():
    try:
        yield
    except DataError as err:
        if os.environ.get("SITE_DEBUG"):
            raise
        from mkdocs.config.base import ValidationError
        raise ValidationError(f"{err} (SITE_DEBUG=1 shows where it was read)") from None
