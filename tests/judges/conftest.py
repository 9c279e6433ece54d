"""Fixtures of the judges tests: the scripted chat server."""

import pytest

from tests.judges import scripted


@pytest.fixture
def serve():
    """A scripted chat server on 127.0.0.1 (``serve(script) -> ChatServer``)."""
    yield from scripted.serving()
