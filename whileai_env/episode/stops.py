"""Why an episode ended: the ``stop_reason`` a row carries.

A ``StrEnum``, so a row holds the plain value (``"agent_done"``) and ``reason == "agent_done"``
still holds; the schema documents the same values.

>>> StopReason("user_closed").truncated, StopReason.MAX_TURNS.truncated
(False, True)
"""

from __future__ import annotations

from enum import StrEnum


class StopReason(StrEnum):
    """Every way an :class:`~whileai_env.Episode` can end."""

    #: The agent gave its final reply (an agent with its own loop, through ``record_external``).
    AGENT_DONE = "agent_done"
    #: The agent replied and the simulated user had nothing more to say.
    USER_CLOSED = "user_closed"
    #: The agent's turn had no text and no tool call, or the external agent returned no text.
    EMPTY_REPLY = "empty_reply"
    #: More malformed or unknown tool calls than the episode's ``error_budget`` allows.
    ERROR_BUDGET = "error_budget"
    #: The episode hit ``max_turns`` before it ended (truncated; the reward is 0).
    MAX_TURNS = "max_turns"

    @property
    def truncated(self) -> bool:
        """Whether the episode was cut off rather than ended (Gymnasium's ``truncated``)."""
        return self is StopReason.MAX_TURNS
