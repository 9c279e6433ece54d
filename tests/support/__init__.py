"""Test helpers shared across suites: a real OpenAI-compatible chat server and a tiny local model.

``ChatServer``/``sequence`` need only the standard library; ``build_tiny_model`` imports torch,
transformers and tokenizers when called. Fixtures live in :mod:`tests.support.fixtures`.
"""

from tests.support.chat_server import ChatServer, Script, sequence
from tests.support.tiny_model import build_tiny_model

__all__ = ["ChatServer", "Script", "build_tiny_model", "sequence"]
