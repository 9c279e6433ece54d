"""A target that succeeds for the right entity with other values than the person asked for is
not done (trial users' phone and mail specs: wifi switched on when asked off, mail sent to
someone else, the wrong messages deleted, all at reward 1.0)."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from whileai_env.grading.checklist import task_checklist
from whileai_env.grading.details import match

ROW = {
    "prompt": 'Please send a message to +1 415 555 0100 saying "Running late, start without me".',
    "final_text": "I have sent the message.",
    "scenario_dimensions": {"tool": "send_message", "stance": "ordinary", "ask": "tool"},
    "world": {
        "state": "exists",
        "targets": ["send_message"],
        "entities": {},
        "details": {
            "send_message": {
                "phone_number": "+1 415 555 0100",
                "content": "Running late, start without me",
            }
        },
    },
    "steps": [
        {
            "index": 0,
            "tool": "send_message",
            "arguments": {
                "phone_number": "+1 415 555 0100",
                "content": "Running late, start without me",
            },
            "result": {"status": "ok", "message_id": "M-1"},
            "ok": True,
            "error": None,
            "fault": None,
            "kind": "create",
        }
    ],
}


def _sent(**args) -> dict:
    row = copy.deepcopy(ROW)
    row["steps"][0]["arguments"].update(args)
    return row


def test_the_values_asked_for_pass():
    assert task_checklist(ROW)["markers"]["followed_details"] == 1.0


def test_another_value_than_the_one_asked_for_fails():
    graded = task_checklist(_sent(content="lol"))
    assert graded["reward"] == 0.0 and "wrong_details" in graded["reason"]
    assert task_checklist(_sent(phone_number="+1 415 555 0199"))["reward"] == 0.0


def test_a_paraphrase_of_free_text_passes():
    graded = task_checklist(_sent(content="Hi! Running a bit late, please start without me."))
    assert graded["markers"]["followed_details"] == 1.0


def test_a_detail_the_person_never_said_is_the_agents_to_choose():
    row = _sent(content="anything")
    row["prompt"] = "Please send a message to +1 415 555 0100."
    assert task_checklist(row)["markers"]["followed_details"] == 1.0


def test_a_boolean_said_as_no_is_checked():
    row = copy.deepcopy(ROW)
    row["prompt"] = "Wifi status needs to be set with on set to no."
    row["world"]["details"] = {"send_message": {"on": False}}
    row["steps"][0]["arguments"] = {"on": True}
    assert task_checklist(row)["reward"] == 0.0
    row["steps"][0]["arguments"] = {"on": False}
    assert task_checklist(row)["reward"] == 1.0


def test_lists_must_hold_every_said_item():
    row = copy.deepcopy(ROW)
    row["prompt"] = "Email ana@x.org, bo@x.org and cy@x.org the notes."
    row["world"]["details"] = {"send_message": {"to": ["ana@x.org", "bo@x.org", "cy@x.org"]}}
    row["steps"][0]["arguments"] = {"to": ["ana@x.org", "bo@x.org"]}
    assert task_checklist(row)["reward"] == 0.0
    row["steps"][0]["arguments"] = {"to": ["cy@x.org", "ana@x.org", "bo@x.org"]}
    assert task_checklist(row)["reward"] == 1.0


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.integers(-(10**6), 10**6),
        st.floats(-1e6, 1e6, allow_nan=False),
        st.text(min_size=1, max_size=30),
        st.dates().map(lambda d: d.isoformat()),
    )
)
def test_every_value_matches_itself(value):
    assert match(value, value)


def test_on_a_vague_ask_a_change_nobody_asked_for_fails():
    row = copy.deepcopy(ROW)
    row["prompt"] = "Something is off with my messages, can you sort it?"
    row["scenario_dimensions"]["ask"] = "vague"
    row["steps"][0]["arguments"] = {"phone_number": "+1 415 555 0100", "content": "Chief Nonsense"}
    graded = task_checklist(row)
    assert graded["reward"] == 0.0 and graded["markers"]["followed_details"] == 0.0


def test_a_phone_written_as_the_api_wants_it_is_the_one_said():
    """ "5139124457x1574" for "(513)912-4457x1574" was an invented reference, the wrong entity
    and a wrong detail (4 of 4 tasks of a user's phone spec)."""
    row = copy.deepcopy(ROW)
    row["prompt"] = 'Text (513)912-4457x1574 saying "Running late, start without me".'
    row["world"]["entities"] = {"phone_number": "(513)912-4457x1574"}
    row["world"]["details"]["send_message"]["phone_number"] = "(513)912-4457x1574"
    row["steps"][0]["arguments"]["phone_number"] = "5139124457x1574"
    graded = task_checklist(row)
    assert graded["reward"] == 1.0, graded["reason"]
    row["steps"][0]["arguments"]["phone_number"] = "5139124458x1574"
    assert task_checklist(row)["reward"] == 0.0


def test_a_short_text_kept_inside_a_longer_one_passes():
    row = copy.deepcopy(ROW)
    row["prompt"] = 'Reply to the thread with the subject "Travel itinerary".'
    row["world"]["details"] = {"send_message": {"subject": "Travel itinerary"}}
    row["steps"][0]["arguments"] = {"subject": "Re: Travel itinerary"}
    assert task_checklist(row)["markers"]["followed_details"] == 1.0
