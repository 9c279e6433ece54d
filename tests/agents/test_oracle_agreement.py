"""The oracle and the checklist agree: what one accepts, the other does (issue 11, item 4).

Each test is one cause found on the foreign-spec corpus, replayed on a small spec of our own.
"""

from __future__ import annotations

from typing import Any

import whileai_env as wenv
from tests.grading.rowkit import Convo, ok
from whileai_env.agents import oracle_agent
from whileai_env.agents.reference import ReferencePolicy

ORDINARY = {
    "rule": "none",
    "world_state": "exists",
    "condition": "success",
    "history": "fresh",
    "stance": "ordinary",
    "ask": "tool",
    "persona": "returning",
    "tone": "neutral",
    "texture": "standard",
}


def _play(spec: wenv.Spec, **coords: str) -> list[dict[str, Any]]:
    rows = []
    for seed in range(4):
        cell = wenv.Cell(**{**ORDINARY, **coords})
        task = wenv.make_task(cell, spec, seed=seed, fault_rate=0.0)
        policy = oracle_agent(spec)
        policy.start(task)
        episode = wenv.Episode(spec, task)
        while not episode.done:
            episode.step(policy(episode.messages))
        episode.reward()
        rows.append(episode.row())
    return rows


def test_an_out_of_scope_reply_names_a_service_whose_noun_ends_like_a_verb_form():
    """A lone tool ``mindmapping`` makes the scope "mindmappings": the checklist hears the plural
    as the tool's noun, so the oracle's redirect addresses the ask."""
    tool = {
        "name": "mindmapping",
        "description": "Record one node of a mind map.",
        "parameters": {
            "type": "object",
            "properties": {"node": {"type": "string"}},
            "required": ["node"],
        },
    }
    spec = wenv.load_spec(tools=[tool], system_prompt="You help people map their ideas.")
    for row in _play(spec, tool="unrelated"):
        assert row["reward"] == 1.0, (row["final_text"], row["reason"])


def test_a_read_whose_only_fact_is_long_is_reported_by_quoting_it():
    """A file's text is the one fact of a read; the checklist counts any fact up to its length
    limit, so the oracle quotes it rather than saying only that it looked."""
    spec = wenv.load_spec(
        tools=[
            {
                "name": "read_note",
                "description": "Read a note.",
                "parameters": {
                    "type": "object",
                    "properties": {"note_id": {"type": "string"}},
                    "required": ["note_id"],
                },
            }
        ]
    )
    text = "export function totalOf(items) {\n  return items.reduce((a, i) => a + i.total, 0);\n}"
    result = ok(content=text)
    summary = ReferencePolicy(spec)._summary("read_note", {"note_id": "N-1"}, result)
    assert text in summary
    row = (
        Convo("What does note N-1 say?", tool="read_note")
        .call("read_note", {"note_id": "N-1"}, result)
        .row(summary)
    )
    assert wenv.task_checklist(row)["markers"]["reported_result"] == 1.0
