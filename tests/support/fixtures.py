"""Pytest fixtures over the support helpers; import them into a ``conftest.py`` to use them.

>>> from tests.support.fixtures import chat_server  # noqa: F401   (in a conftest.py)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.support.chat_server import ChatServer, Script


@pytest.fixture
def chat_server() -> Iterator[Callable[..., ChatServer]]:
    """A factory ``chat_server(script, model="test-model") -> ChatServer`` (started; closed at teardown)."""
    servers: list[ChatServer] = []

    def start(script: Script, **kwargs: Any) -> ChatServer:
        server = ChatServer(script, **kwargs).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()
