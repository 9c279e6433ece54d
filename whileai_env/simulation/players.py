"""How each kind of agent plays one episode through the engine.

- a step policy ``policy(observation) -> action`` (the reference agents, a Gymnasium policy):
  called once per turn with the message list; an optional ``policy.start(task)`` is called first
  (privileged policies such as the oracle read the task there);
- a model (``"openai:M"``, ``"vllm:M@URL"``, ``"hf:PATH"``): called with the messages and tools,
  its per-turn logprobs and usage recorded;
- a callable ``agent(message) -> {"steps", "final_text"}``: called once per rollout with the
  opener, its world bound to the rollout so faults fire.

An agent that raises, or returns the wrong shape, raises :class:`AgentError`; the loop counts
the rollout as lost.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from whileai_env._util.frozen import copy_json
from whileai_env.episode.engine import Episode
from whileai_env.errors import AgentError, WhileaiError
from whileai_env.world.binding import bound

POLICY_PARAMETER_NAMES = ("observation", "obs", "messages")


def _start_takes_rollout_index(start: Callable[..., Any]) -> bool:
    """Whether ``start`` takes ``rollout_index``: read once per function for methods and
    functions, each time for a callable that cannot be a cache key."""
    function = getattr(start, "__func__", start)
    try:
        return _takes_rollout_index(function)
    except TypeError:  # unhashable
        return "rollout_index" in inspect.signature(start).parameters


@lru_cache(maxsize=64)
def _takes_rollout_index(start: Callable[..., Any]) -> bool:
    """Whether a policy's ``start`` takes ``rollout_index`` (read once per function: a
    signature costs ~45 µs, once per rollout)."""
    return "rollout_index" in inspect.signature(start).parameters


@dataclass
class PolicyPlayer:
    """Plays a step policy turn by turn."""

    policy: Callable[[Any], Any]
    name: str = "policy"

    def play(self, episode: Episode) -> dict[str, Any]:
        """Play to the end; returns the fields the policy adds to the row (``row_fields()``)."""
        policy = self.policy
        start = getattr(policy, "start", None)
        try:
            if callable(start):
                policy = copy.copy(policy)
                start = policy.start  # type: ignore[attr-defined]  # the copy's own start, found above
                if _start_takes_rollout_index(start):
                    start(episode.task, rollout_index=episode.rollout_index)
                else:
                    start(episode.task)
            while not episode.done:
                episode.step(policy(copy_json(episode.messages)))
        except WhileaiError:
            raise
        except Exception as exc:
            raise AgentError(f"{type(exc).__name__}: {exc}") from exc
        fields = getattr(policy, "row_fields", None)
        return dict(fields()) if callable(fields) else {}


@dataclass
class ModelPlayer:
    """Plays a chat model (an ``OpenAIPolicy`` or ``HFPolicy``) turn by turn."""

    model: Callable[[list, list], Any]
    name: str = "model"

    def play(self, episode: Episode) -> dict[str, Any]:
        tools = episode.tools
        try:
            while not episode.done:
                out = self.model(copy_json(episode.messages), tools)
                meta = {
                    "logprob": out.logprob,
                    "n_tokens": out.n_tokens,
                    "input_tokens": out.input_tokens,
                    "output_tokens": out.output_tokens,
                    "truncated": out.truncated or None,
                }
                episode.step(out.message, meta=meta)
        except WhileaiError:
            raise
        except Exception as exc:
            raise AgentError(f"{type(exc).__name__}: {exc}") from exc
        return {}


@dataclass
class CallablePlayer:
    """Plays ``agent(message) -> {"steps", "final_text"}`` once per rollout."""

    agent: Callable[[str], Any]
    name: str = "callable"

    def play(self, episode: Episode) -> dict[str, Any]:
        try:
            with bound(episode.world):
                out = self.agent(episode.task.opener)
        except Exception as exc:
            raise AgentError(f"{type(exc).__name__}: {exc}") from exc
        if not isinstance(out, Mapping) or "final_text" not in out:
            shape = type(out).__name__ if not isinstance(out, Mapping) else f"keys {sorted(out)}"
            raise AgentError(
                f"the agent must return {{'steps': [...], 'final_text': str}}, got {shape}"
            )
        try:
            episode.record_external(out.get("steps", []), out["final_text"])
        except ValueError as exc:
            raise AgentError(str(exc)) from exc
        return {k: out[k] for k in ("seeded",) if k in out}


def is_step_policy(agent: Any) -> bool:
    """A callable is a step policy when it says so or its first parameter is an observation."""
    if getattr(agent, "is_policy", False) or callable(getattr(agent, "start", None)):
        return True
    try:
        params = list(inspect.signature(agent).parameters)
    except (TypeError, ValueError):
        return False
    return bool(params) and params[0] in POLICY_PARAMETER_NAMES


def make_player(agent: Any, *, spec: Any = None, logprobs: bool = False) -> Any:
    """The player for ``agent``: a reference agent name, a model spec string, or a callable."""
    if isinstance(agent, str):
        from whileai_env.agents import make_reference_agent

        if agent in ("seeded", "oracle", "silent"):
            return PolicyPlayer(make_reference_agent(agent, spec), name=agent)
        from whileai_env.agents.models import make_policy

        if ":" not in agent:  # no model spec names no provider: say every name an agent can have
            raise ValueError(
                f"unknown agent {agent!r}: use 'seeded', 'oracle' or 'silent' (the reference "
                "agents), 'openai:MODEL', 'vllm:MODEL@URL' or 'hf:PATH'"
            )
        return ModelPlayer(make_policy(agent, logprobs=logprobs), name=agent)
    if agent is None:
        raise ValueError(
            "simulate() needs an agent: a callable agent(message) -> {'steps', 'final_text'}, a step policy "
            "policy(observation) -> action, 'openai:MODEL', 'vllm:MODEL@URL', 'hf:PATH', or 'seeded' / "
            "'oracle' / 'silent'"
        )
    if hasattr(agent, "play") and callable(agent.play):
        return agent
    if not callable(agent):
        raise TypeError(
            f"agent must be callable or a model spec string, got {type(agent).__name__}"
        )
    name = getattr(agent, "name", None) or getattr(agent, "__name__", type(agent).__name__)
    if getattr(agent, "is_model", False):
        return ModelPlayer(agent, name=str(name))
    if is_step_policy(agent):
        return PolicyPlayer(agent, name=str(name))
    return CallablePlayer(agent, name=str(name))
