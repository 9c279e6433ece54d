"""decontaminate(): verbatim, near copies by the 80% rule, one shared sentence is not enough."""

from __future__ import annotations

import json

from whileai_env.analysis.decontaminate import decontaminate

EVAL = (
    "My order 4412 arrived with a cracked screen and the box was soaked through, "
    "so I would like a full refund to my original card please"
)
SHARED_SENTENCE = "I wrote in about this before and nobody got back to me at all"


def test_verbatim_and_near_copies_come_out():
    train = [
        {"prompt": EVAL.upper()},
        {"prompt": EVAL.replace("please", "thanks")},  # one word changed: a near copy
        {"prompt": "Where is my parcel?"},
    ]
    clean, report = decontaminate(train, against=[[{"prompt": EVAL}]])
    assert [row["prompt"] for row in clean] == ["Where is my parcel?"]
    assert (report["verbatim"], report["near"], report["contaminated"]) == (1, 1, 2)
    assert report["offenders"][1]["coverage"] >= 0.8


def test_one_shared_template_sentence_is_not_contamination():
    evals = [{"prompt": f"{SHARED_SENTENCE}. Can you cancel order 5521?"}]
    train = [{"prompt": f"{SHARED_SENTENCE}. Please change the address on my account to Leeds."}]
    clean, report = decontaminate(train, against=[evals])
    assert len(clean) == 1 and report["contaminated"] == 0


def test_short_prompts_match_verbatim_only():
    evals = [{"prompt": "cancel order 7"}]
    train = [{"prompt": "Cancel order 7"}, {"prompt": "cancel order 8"}]
    clean, _ = decontaminate(train, against=[evals])
    assert [row["prompt"] for row in clean] == ["cancel order 8"]


def test_replies_are_checked_against_references_and_paths_load(tmp_path):
    path = tmp_path / "eval.jsonl"
    path.write_text(json.dumps({"prompt": "q", "privileged": {"reference": EVAL}}) + "\n")
    train = [{"prompt": "something else entirely", "final_text": EVAL}]
    assert decontaminate(train, against=[path])[1]["contaminated"] == 0
    clean, report = decontaminate(train, against=[path], fields=("prompt", "final_text"))
    assert clean == [] and report["by_field"] == {"prompt": 0, "final_text": 1}
