"""A v1 harness segment replayed into the episode (no verifiers: messages are plain objects)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

import whileai_env as wenv
from tests.envs.verifiers.parity import SPEC, pick_tasks, play
from whileai_env.envs.verifiers.v1_play import play_segment


@pytest.fixture(scope="module")
def spec():
    return wenv.load_spec(SPEC)


@pytest.fixture(scope="module")
def tasks(spec):
    return pick_tasks(spec)


def _segments(transcript):
    """The oracle's transcript as v1 segments: each ends on an assistant text turn."""
    segments, current = [], []
    for m in transcript[2:]:
        if m["role"] == "user":
            segments.append(current)
            current = []
            continue
        calls = [
            SimpleNamespace(
                id=c["id"], name=c["function"]["name"], arguments=c["function"]["arguments"]
            )
            for c in m.get("tool_calls") or []
        ]
        current.append(SimpleNamespace(role=m["role"], content=m["content"], tool_calls=calls))
    return [*segments, current]


@pytest.mark.parametrize("kind", ["multi_turn", "faulted"])
def test_segments_replayed_give_the_episodes_transcript_and_grade(spec, tasks, kind):
    expected = play(spec, tasks[kind], "oracle")
    episode = wenv.Episode(spec, tasks[kind])
    replies = []
    for segment in _segments(expected.messages):
        reply, missed = play_segment(episode, segment)
        assert missed == 0
        replies.append(reply)
    assert episode.done and episode.messages == expected.messages
    assert episode.reward()["markers"] == expected.reward()["markers"]
    users = [m["content"] for m in expected.messages if m["role"] == "user"][1:]
    assert [r for r in replies if r is not None] == users


def test_a_tool_result_the_replay_does_not_reproduce_is_counted(spec, tasks):
    expected = play(spec, tasks["faulted"], "oracle")
    segment = _segments(expected.messages)[0]
    tool = next(m for m in segment if m.role == "tool")
    tool.content = json.dumps({"status": "ok", "result": "something else"})
    assert play_segment(wenv.Episode(spec, tasks["faulted"]), segment)[1] == 1
