"""The tests' chat server: the package's :class:`whileai_env.serving.chat_server.ChatServer`,
refusing ``stream: true`` by default so a test proves its client does not stream
(pass ``streaming=True`` for one that does)."""

from __future__ import annotations

from typing import Any

from whileai_env.serving import chat_server as _served
from whileai_env.serving.chat_server import Script, sequence


class ChatServer(_served.ChatServer):
    """:class:`whileai_env.serving.chat_server.ChatServer` with ``streaming=False`` by default."""

    def __init__(
        self, script: Script, *, model: str = "test-model", streaming: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(script, model=model, streaming=streaming, **kwargs)


__all__ = ["ChatServer", "Script", "sequence"]
