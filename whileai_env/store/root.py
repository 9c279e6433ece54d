"""Where the local dataset store lives: an argument, else ``WHILEAI_STORE``, else the user cache.

>>> str(store_root("/tmp/my-store"))
'/tmp/my-store'
"""

from __future__ import annotations

import os
from pathlib import Path

#: The environment variable naming the store's directory.
STORE_ENV = "WHILEAI_STORE"
DEFAULT_ROOT = Path("~/.cache/whileai-env/store")


def store_root(root: str | os.PathLike | None = None) -> Path:
    """The store directory: ``root`` when given, else ``$WHILEAI_STORE``, else
    ``~/.cache/whileai-env/store`` (created on first push, not here)."""
    if root is not None:
        return Path(root).expanduser()
    found = os.environ.get(STORE_ENV)
    return Path(found).expanduser() if found else DEFAULT_ROOT.expanduser()
