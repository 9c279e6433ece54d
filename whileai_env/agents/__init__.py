"""Agents the simulation loop and the Gymnasium env can play.

Reference agents (``oracle_agent``, ``seeded_agent``, ``silent_agent``: step policies
``policy(observation) -> action``), model-backed policies (``policy(messages, tools) ->
TurnOutput`` for an OpenAI-compatible endpoint or a local transformers model) and a
model-backed opener writer. Importing this package imports neither ``openai`` nor ``torch``;
they load when a policy is built.

>>> from whileai_env.agents import parse_model_spec
>>> parse_model_spec("openai:gpt-4.1-mini").kind
'openai'
"""

from whileai_env.agents.models import (
    HFPolicy,
    ModelSpec,
    OpenAIPolicy,
    TurnOutput,
    make_policy,
    parse_model_spec,
)
from whileai_env.agents.opener_model import ModelOpenerWriter
from whileai_env.agents.reference import (
    FLAWS,
    ReferencePolicy,
    make_reference_agent,
    oracle_agent,
    seeded_agent,
    silent_agent,
)

__all__ = [
    "FLAWS",
    "HFPolicy",
    "ModelOpenerWriter",
    "ModelSpec",
    "OpenAIPolicy",
    "ReferencePolicy",
    "TurnOutput",
    "make_policy",
    "make_reference_agent",
    "oracle_agent",
    "parse_model_spec",
    "seeded_agent",
    "silent_agent",
]
