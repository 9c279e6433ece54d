"""What a description says is a hint about a value, never the value itself: a format template it
quotes, the names of the arguments it contrasts, a default meaning "not given", a placeholder
example the world would refuse (``check-spec --values`` flagged each of these on foreign specs)."""

from __future__ import annotations

import jsonschema

from whileai_env.world.arguments import detail_value, locator_value
from whileai_env.world.hints import hints_of, is_format_template
from whileai_env.world.validation import find_placeholder

CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER


def _details(name, schema, root=None, n=6):
    return [detail_value(name, schema, i, root=root) for i in range(n)]


def test_format_templates_are_recognised_and_values_are_not():
    for text in ("YYYY-MM-DD", "YYYY-MM-DDTHH:MM:SS", "HH:MM", "DD/MM/YYYY", "MM/DD/YY"):
        assert is_format_template(text), text
    for text in ("2024-01-01", "HAT123", "economy", "SMS", "/error/i"):
        assert not is_format_template(text), text


def test_a_quoted_format_template_is_a_format_not_an_example():
    hints = hints_of({"description": "The departure date in the format 'YYYY-MM-DD'."})
    assert hints.format == "date"
    assert hints.examples == ()
    both = hints_of({"description": "Day in the format 'DD/MM/YYYY', such as '01/02/2025'."})
    assert "DD/MM/YYYY" not in both.examples
    choices = hints_of({"description": "The stamp: either 'YYYY-MM-DD' or 'HH:MM'."})
    assert choices.choices == ()


def test_a_date_whose_format_is_quoted_is_a_date():
    schema = {"type": "string", "description": "Start of the stay in the format 'YYYY-MM-DD'."}
    nested = {
        "type": "array",
        "items": {
            "type": "object",
            "required": ["day"],
            "properties": {"day": {"type": "string", "description": "Format 'YYYY-MM-DD'."}},
        },
    }
    for value in _details("check_in", schema):
        assert CHECKER.conforms(value, "date"), value
    for value in _details("legs", nested):
        assert all(CHECKER.conforms(item["day"], "date") for item in value), value


def test_choices_that_name_the_arguments_are_not_values():
    root = {
        "type": "object",
        "properties": {
            "needle": {
                "type": "string",
                "description": "Substring to look for. Give either needle or pattern, not both.",
            },
            "pattern": {
                "type": "string",
                "description": "Expression to look for. Give either needle or pattern.",
            },
        },
    }
    for name in ("needle", "pattern"):
        values = _details(name, root["properties"][name], root)
        assert not set(values) & {"needle", "pattern"}, values


def test_choices_beside_an_argument_of_the_same_name_stay_values():
    root = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "sort": {"type": "string", "description": "Sort key: either 'name' or 'created'."},
        },
    }
    assert set(_details("sort", root["properties"]["sort"], root)) <= {"name", "created"}


def test_a_truth_value_in_a_string_is_true_or_false_and_none_is_not_a_default():
    schema = {
        "type": "string",
        "description": "If true, archived rows are returned too. Defaults to false.",
        "default": "None",
    }
    values = _details("with_archived", schema, n=8)
    assert set(values) <= {"true", "false"}, values
    plain = {"type": "string", "description": "A label for the batch.", "default": "null"}
    assert all(v.lower() not in ("null", "none") for v in _details("batch_label", plain))


def test_a_placeholder_example_is_never_stated():
    schema = {"type": "string", "description": "The account email, such as 'someone@example.com'."}
    for i in range(6):
        value = locator_value("email", schema, i)
        assert CHECKER.conforms(value, "email"), value
        assert (
            find_placeholder({"email": value}, {"email": schema}, lambda _: False, ("email",))
            is None
        )


def test_a_moment_whose_description_speaks_of_time_zones_is_a_moment():
    """A calendar event's ``start``: its description gives the format and mentions zones (and
    "e.g., flights"); the value is a date-time, and a ``timeZone`` beside it is a zone."""
    start = {
        "type": "string",
        "description": "Event start time. String format: '2025-01-01T10:00:00' (timed). For "
        "per-field timezone, use JSON with a timeZone. Per-field timezone is useful for events "
        "spanning multiple timezones (e.g., flights).",
    }
    zone = {
        "type": "string",
        "description": "Timezone as IANA Time Zone Database name (e.g., America/Los_Angeles). "
        "Only used for timezone-naive datetime strings.",
    }
    for seed in range(20):
        value = detail_value("start", start, seed, writes=True)
        assert jsonschema.FormatChecker().conforms(value, "date-time"), value
        assert "/" in detail_value("timeZone", zone, seed)


def test_an_id_shown_inside_an_example_url_is_the_id_not_the_url():
    page_id = {
        "type": "string",
        "description": "Confluence page ID (numeric ID, can be found in the page URL). For "
        "example, in 'https://example.atlassian.net/wiki/spaces/TEAM/pages/123456789/Page+Title', "
        "the page ID is '123456789'.",
    }
    for seed in range(10):
        value = locator_value("page_id", page_id, seed)
        assert value.isdigit() and len(value) == 9, value


def test_a_string_that_holds_json_is_a_json_text_shaped_like_the_example():
    import json

    fields = {
        "type": "string",
        "description": "JSON string of fields to update. For 'assignee', provide an email. "
        'Example: \'{"assignee": "dana@acme.io", "summary": "New Summary", '
        '"due": "2025-01-01"}\'',
    }
    for seed in range(10):
        value = json.loads(detail_value("fields", fields, seed, writes=True))
        assert set(value) == {"assignee", "summary", "due"}, value
        assert jsonschema.FormatChecker().conforms(value["due"], "date"), value


def test_json_nested_past_any_real_example_is_no_example_and_no_crash():
    from whileai_env.world.makers import like
    from whileai_env.writer.spoken import spoken_value

    deep = "[" * 50_000
    assert detail_value("fields", {"type": "string", "description": "A JSON list: " + deep}, 1)
    assert like(deep, __import__("random").Random(0), now=0, when="past")
    assert spoken_value(deep)


def test_example_values_after_a_label_are_examples():
    """Jira's ``transition_id``: "Example values: '11', '21', '31'" was not read, and the ids
    came out as ``TRA-771999``."""
    said = "ID of the transition to perform. Example values: '11', '21', '31'"
    assert hints_of({"type": "string", "description": said}).examples == ("11", "21", "31")
    value = locator_value("transition_id", {"type": "string", "description": said}, 4)
    assert value.isdigit() and len(value) == 2, value


def test_an_array_s_json_listed_example_gives_its_items():
    """Linear's ``labels``: "Label names or IDs as a JSON array of strings (e.g. ["Bug",
    "Urgent"])" made three labels each holding the whole text (a trial Linear spec)."""
    labels = {
        "type": "array",
        "items": {"type": "string"},
        "description": 'Label names as a JSON array of strings (e.g. ["Bug", "Urgent"]).',
    }
    for seed in range(4):
        value = detail_value("labels", labels, seed, "save_issue", root=labels)
        assert value == ["Bug", "Urgent"], value


def test_a_hostile_listed_example_is_no_example_and_no_crash():
    """A description's "e.g. [[[[…" nested past any real example, or one huge number: the draw
    goes on without it (it raised RecursionError out of ``draw_tasks``)."""
    for said in ("e.g. " + "[" * 5000 + "]" * 5000, "e.g. [" + "1" * 100_000 + "]"):
        labels = {"type": "array", "items": {"type": "string"}, "description": said}
        assert hints_of(labels).examples == ()
        value = detail_value("labels", labels, 1, "save_issue", root=labels)
        assert isinstance(value, list) and all(isinstance(v, str) for v in value), value
