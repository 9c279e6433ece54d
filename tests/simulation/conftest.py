from tests.support.fixtures import chat_server  # noqa: F401
