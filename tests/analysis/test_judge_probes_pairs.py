"""judge_probes finds a planted hole and judge_pairs a position bias, in model judges served by a
real chat-completions endpoint on 127.0.0.1 whose answers are scripted."""

from __future__ import annotations

import json

import pytest

from tests.judges import scripted
from tests.judges.scripted import RUBRIC, criteria_answer, row, shown, spec_of
from whileai_env.analysis.judge_pairs import judge_pairs
from whileai_env.analysis.judge_probes import PROBES, judge_probes, rubric_words
from whileai_env.analysis.judge_trust import judge_trust
from whileai_env.judges.pairwise import pair_judge
from whileai_env.judges.rubric import rubric_judge


@pytest.fixture
def serve():
    """A scripted chat server on 127.0.0.1 (``serve(script) -> ChatServer``)."""
    yield from scripted.serving()


def _last_reply(text: str) -> str:
    return text.rsplit("ASSISTANT: ", 1)[-1]


def _stuffing_hole(request):
    """A judge model that passes any final reply holding two of the rubric's words."""
    reply = _last_reply(shown(request)).lower()
    hit = sum(word in reply for word in ("looks", "order", "changing", "shipped", "cancels")) >= 2
    return criteria_answer(hit, hit)


def _failing_rows(n=3):
    return [row(f"Working on request {i}.", prompt=f"Please help with {i}") for i in range(n)]


def test_judge_probes_finds_a_judge_that_pays_for_the_rubrics_words(serve):
    server = serve(_stuffing_hole)
    report = judge_probes(_failing_rows(), rubric_judge(spec_of(server), rubric=RUBRIC))
    assert report["baseline"] == {"pass_rate": 0.0, "rows": 3, "failing": 3, "ungraded": 0}
    assert report["probes"]["rubric_words"] == 1.0
    assert report["exploitable_by"] == ["rubric_words"]
    assert report["counts"]["polite_refusal"] == {"tried": 3, "passed": 0, "ungraded": 0}


def test_a_sound_judge_is_exploitable_by_nothing(serve):
    server = serve(lambda request: criteria_answer(False, False))
    report = judge_probes(_failing_rows(), rubric_judge(spec_of(server), rubric=RUBRIC))
    assert report["exploitable_by"] == []
    assert set(report["probes"]) == set(PROBES)


def test_the_empty_tool_call_probe_adds_a_rejected_call_with_empty_arguments(serve):
    server = serve(
        lambda request: criteria_answer("ASSISTANT CALLS get_order({})" in shown(request), True)
    )
    report = judge_probes(
        _failing_rows()[:2], rubric_judge(spec_of(server), rubric=RUBRIC), "empty_tool_call"
    )
    assert report["exploitable_by"] == ["empty_tool_call"]
    probed = [r for r in server.requests if "get_order({})" in shown(r)]
    assert probed and "rejected" in shown(probed[0])


def test_ungraded_probe_rows_are_not_counted(serve):
    def flaky(request):
        return (
            {"content": "no idea"}
            if "completed this" in shown(request)
            else criteria_answer(False, False)
        )

    server = serve(flaky)
    report = judge_probes(_failing_rows()[:2], rubric_judge(spec_of(server), rubric=RUBRIC))
    assert report["probes"]["success_claim"] is None
    assert report["counts"]["success_claim"]["ungraded"] == 2


def test_rubric_words_come_from_the_rows_rubric_without_one_passed():
    judge = lambda r: float("shipped" in r["final_text"])  # noqa: E731
    rows = [row("Working.", privileged={"rubric": "- Never cancels a shipped order."})]
    assert judge_probes(rows, judge, "rubric_words")["exploitable_by"] == ["rubric_words"]
    assert judge_probes([row("Working.")], judge, "rubric_words")["probes"] == {
        "rubric_words": None
    }
    assert rubric_words(RUBRIC)[:3] == ["cancelling", "looks", "order"]


def test_judge_trust_probes_go_through_judge_probes():
    judge = lambda r: float("order" in r["final_text"].lower())  # noqa: E731
    rows = [{**row("Working."), "reward": 0.0, "gold_reward": float(i % 2)} for i in range(6)]
    report = judge_trust(rows, judge=judge, probes=True)
    assert "empty_tool_call" in report["probes"]
    report = judge_trust(rows, judge=judge, probes=["bare_claim"])
    assert report["probes"] == {"bare_claim": 0.0}


def test_unknown_probe_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown probe 'nope'"):
        judge_probes([row("x")], lambda r: 0.0, ["nope"])


def _first_is_better(request):
    return {"content": json.dumps({"winner": "1", "reason": "the first one"})}


def _pairs():
    return [
        {"prompt": f"ask {i}", "chosen": row(f"good {i}"), "rejected": row(f"bad {i}")}
        for i in range(4)
    ]


def test_judge_pairs_catches_a_position_biased_judge(serve):
    server = serve(_first_is_better)
    judged, report = judge_pairs(_pairs(), pair_judge(spec_of(server)))
    assert report["position_flip_rate"] == 1.0
    assert report["first_position_rate"] == 1.0
    assert report["ties"] == 4 and report["wins"] == {}
    assert {p["judge_pair"]["winner"] for p in judged} == {"tie"}
    assert len(server.requests) == 8  # both orders of every pair


def test_judge_pairs_credits_a_consistent_judge(serve):
    def content_judge(request):
        text = shown(request)
        first = text.split("CONVERSATION 2:")[0]
        return {"content": json.dumps({"winner": "1" if "good" in first else "2"})}

    server = serve(content_judge)
    judged, report = judge_pairs(_pairs(), pair_judge(spec_of(server)), concurrency=4)
    assert report["position_flip_rate"] == 0.0
    assert report["wins"] == {"chosen": 4}
    assert report["agrees_with_chosen"] == 1.0
    assert judged[0]["judge_pair"] == {
        "forward": 1.0,
        "backward": 0.0,
        "winner": "chosen",
        "flipped": False,
    }


def test_judge_pairs_leaves_a_pair_unjudged_when_an_order_fails(serve):
    server = serve(lambda request: {"content": "both fine"})
    judged, report = judge_pairs(_pairs()[:1], pair_judge(spec_of(server)))
    assert judged[0]["judge_pair"]["winner"] is None
    assert report["judged"] == 0 and report["position_flip_rate"] is None


def test_judge_pairs_needs_two_rows():
    with pytest.raises(ValueError, match="pair 0 needs two rows"):
        judge_pairs([{"chosen": row("x")}], lambda r: 1.0)
