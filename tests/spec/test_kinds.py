"""Kinds from evidence: computations, verbs anywhere in the name, the description's main verb,
MCP annotations, the schemas, and writes only as the last resort."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from whileai_env._util.lexicon import VERB_KINDS, name_tokens, verb_kind
from whileai_env.spec.arguments import argument_role
from whileai_env.spec.kinds import classify_tool, explain_kind

NUM = {"type": "number"}
STR = {"type": "string"}


def _props(**props):
    return {"type": "object", "properties": props, "required": list(props)}


def kind_of(tool_name, description="", annotations=None, **props):
    tool = {"name": tool_name, "description": description, "parameters": _props(**props)}
    if annotations is not None:
        tool["annotations"] = annotations
    return wenv.load_spec(tools=[tool]).tools[0].kind


@pytest.mark.parametrize(
    ("name", "description", "props"),
    [
        ("add", "Add two numbers.", {"a": NUM, "b": NUM}),
        ("subtract", "", {"minuend": NUM, "subtrahend": NUM}),
        (
            "mean",
            "Calculate the mean of a list of numbers.",
            {"numbers": {"type": "array", "items": NUM}},
        ),
        (
            "convert_units",
            "Convert a quantity between units.",
            {"value": NUM, "from_unit": STR, "to_unit": STR},
        ),
        ("compute_exchange_rate", "", {"base_currency": STR, "target_currency": STR}),
        ("gallon_to_liter", "Converts gallons to liters.", {"gallon": NUM}),
        ("percentage_of", "", {"part": NUM, "whole": NUM}),
    ],
)
def test_computations_are_reads(name, description, props):
    assert kind_of(name, description, **props) == "read"
    assert explain_kind(name, description, _props(**props)).source == "computation"


@pytest.mark.parametrize(
    ("name", "description", "props", "kind"),
    [
        ("add_comment", "Add a comment to a ticket.", {"ticket_id": STR, "body": STR}, "create"),
        ("add_baggage", "", {"reservation_id": STR, "count": {"type": "integer"}}, "create"),
        ("add_user", "", {"name": STR, "email": STR}, "create"),
        ("calculate_refund", "", {"order_id": STR}, "read"),
    ],
)
def test_a_computation_word_on_a_record_is_not_a_computation(name, description, props, kind):
    assert kind_of(name, description, **props) == kind
    assert explain_kind(name, description, _props(**props)).source != "computation"


@pytest.mark.parametrize(
    ("name", "description", "kind"),
    [
        ("card_hold", "Place an immediate freeze on a card.", "update"),
        ("freeze_card", "Place an immediate freeze on a card.", "update"),
        ("invoices.void", "", "delete"),
        ("cardFreeze", "", "update"),
        ("slack_list_channels", "", "read"),
        ("file_search", "", "read"),
        ("issue_refund", "Refund an order.", "create"),
        ("get_or_create_user", "", "create"),
        ("get_or_create_label", "Gets an existing label or creates it.", "create"),
        ("create_or_update_file", "", "update"),
        ("check_in", "", "update"),
        ("can_send_mms", "Checks if the messaging app can send MMS.", "read"),
        ("is_eligible_for_upgrade", "", "read"),
        ("du", "Estimate file space usage.", "read"),
        ("pwd", "Print the current working directory.", "read"),
        ("wc", "Count lines, words and characters in a file.", "read"),
        ("display_status", "", "read"),
        ("archival_memory_search", "", "read"),
        ("recall", "Recall memories that match a query.", "read"),
        ("sample_rows", "", "read"),
        ("filter_products", "", "read"),
        ("make_payment", "", "update"),
        ("run_tests", "", "read"),
        ("transfer_to_human_agents", "Transfer the user to a human agent.", "create"),
        ("frobnicate", "Retrieves the widget's data.", "read"),
        (
            "widget",
            "This tool belongs to the widget API. Tool description: Delete a widget.",
            "delete",
        ),
        (
            "think",
            "Use the tool to think. It will not obtain new information or change the database.",
            "read",
        ),
    ],
)
def test_verbs_anywhere_and_the_description(name, description, kind):
    assert classify_tool(name, description) == kind


@pytest.mark.parametrize(
    ("name", "description", "props", "kind"),
    [
        ("run_sql", "Run a read-only SQL query.", {"sql": STR}, "read"),
        ("read_query", "Execute a SELECT query on the database.", {"query": STR}, "read"),
        (
            "execute_sql",
            "Execute a SQL statement: SELECT, INSERT, UPDATE or DELETE.",
            {"sql": STR},
            "update",
        ),
        ("run_command", "", {"argv": {"type": "array", "items": STR}, "cwd": STR}, "update"),
        ("browser_evaluate", "Evaluate JavaScript on the page.", {"function": STR}, "update"),
        ("lint_code", "", {"code": STR}, "read"),
    ],
)
def test_code_runners_write_unless_they_say_they_only_read(name, description, props, kind):
    assert kind_of(name, description, **props) == kind


def test_annotations_are_evidence_and_kept_by_the_loader():
    assert kind_of("sync", annotations={"readOnlyHint": True}) == "read"
    assert kind_of("sync", "Retrieves the widget.", annotations={"readOnlyHint": False}) == "update"
    # A strong verb in the name outranks a write hint (generated servers mark every POST destructive).
    assert (
        kind_of("post_search", "Search by title", annotations={"destructiveHint": True}, query=STR)
        == "read"
    )
    # A verb in the title counts like one in the name.
    assert (
        kind_of("search_feedback", "", annotations={"title": "Send feedback on a search result"})
        == "create"
    )
    wrapped = {
        "type": "function",
        "function": {"name": "sync", "annotations": {"readOnlyHint": True}},
    }
    assert wenv.load_spec(tools=[wrapped]).tools[0].kind == "read"


def test_schemas_decide_when_words_do_not():
    assert kind_of("widgets", limit={"type": "integer"}, cursor=STR) == "read"
    listing = {
        "name": "widgets",
        "parameters": _props(owner=STR),
        "outputSchema": {"type": "object", "properties": {"items": {"type": "array"}}},
    }
    assert wenv.load_spec(tools=[listing]).tools[0].kind == "read"


def test_no_evidence_is_a_write_and_kinds_override_stays():
    assert explain_kind("frobnicate").kind == "update"
    assert explain_kind("frobnicate").source == "default"
    spec = wenv.load_spec(
        tools=[{"name": "add", "parameters": _props(a=NUM, b=NUM)}], kinds={"add": "create"}
    )
    assert spec.tools[0].kind == "create"


_NONSENSE = st.text("bcdfghjklmnpqrstvwxz", min_size=4, max_size=10).filter(
    lambda w: verb_kind(w) is None
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_NONSENSE, min_size=1, max_size=3))
def test_names_with_no_known_word_are_writes(words):
    assert classify_tool("_".join(words)) == "update"


_STRONG_READS = sorted(
    w
    for w in VERB_KINDS["read"]
    if w
    not in {
        "status",
        "test",
        "tests",
        "diff",
        "head",
        "tail",
        "cat",
        "stat",
        "quote",
        "track",
        "log",
        "watch",
        "filter",
        "sample",
        "print",
        "display",
        "tree",
        "export",
        "download",
        "map",
        "resolve_id",
    }
)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(_STRONG_READS), st.lists(_NONSENSE, min_size=1, max_size=2), st.booleans())
def test_a_strong_read_verb_anywhere_is_a_read(verb, nouns, camel):
    parts = ["acme", verb, *nouns]
    name = parts[0] + "".join(p.title() for p in parts[1:]) if camel else "_".join(parts)
    assert name_tokens(name)[1] == verb
    assert classify_tool(name) == "read"


@pytest.mark.parametrize(
    ("name", "description", "kind"),
    [
        # sooperset/mcp-atlassian: the server refuses writes in read-only mode, and says so
        (
            "jira_transition_issue",
            "Transition a Jira issue to a new status.\n\nRaises:\n    ValueError: If required"
            " fields missing, invalid input, in read-only mode,\n        Jira client unavailable.",
            "update",
        ),
        (
            "confluence_create_page",
            "Create a page. Fails when the server is in read-only mode.",
            "create",
        ),
        ("publish_post", "Publish a post. Not available in read-only mode.", "create"),
        ("run_query", "Execute a SQL query in read-only mode.", "read"),
        ("table_view", "Use this when you need a read-only view of the table.", "read"),
    ],
)
def test_a_read_only_mode_the_call_fails_in_is_no_read_cue(name, description, kind):
    assert classify_tool(name, description) == kind


@pytest.mark.parametrize(
    ("name", "description", "kind"),
    [
        # Trello's MCP server: "list" is the object archived, and "send" is not a create
        ("archive_list", "Send a list to the archive on a specific board", "update"),
        ("archive_card", "Send a card to the archive on a specific board", "update"),
        # the same head word, where the description reads or says another verb
        ("archive_search", "Search the archive for messages", "read"),
        ("file_search", "Search files by name", "read"),
        ("tag_delete", "Delete a tag", "delete"),
        ("API-patch-block-children", "Append block children", "create"),
    ],
)
def test_a_write_verb_that_is_also_a_noun_leads_when_the_description_says_it(
    name, description, kind
):
    assert classify_tool(name, description) == kind


@pytest.mark.parametrize(
    ("name", "description", "props"),
    [
        # Freshdesk: "product" is a record there, not a multiplication
        ("view_product", "View a product.", {"product_id": {"type": "integer"}}),
        (
            "list_products",
            "List products.",
            {"page": {"type": "integer"}, "per_page": {"type": "integer"}},
        ),
    ],
)
def test_a_record_id_or_a_page_is_nothing_to_compute_with(name, description, props):
    found = explain_kind(name, description, {"type": "object", "properties": props})
    assert (found.kind, found.source) == ("read", "name"), found


def _required(*names: str) -> dict:
    return {
        "type": "object",
        "properties": {n: {"type": "string"} for n in names},
        "required": list(names),
    }


@pytest.mark.parametrize(
    ("name", "description", "props", "kind"),
    [
        ("send_invoice", "Send an invoice to the recipient(s).", _required("invoice_id"), "update"),
        ("submitReview", "Submit a review for approval.", _required("reviewId"), "update"),
        ("send_message", "Send a message.", _required("thread_id", "text"), "create"),
        ("send_email", "Send an email.", _required("to", "subject"), "create"),
        (
            "aggregate",
            "Run an aggregation against a MongoDB collection",
            _required("pipeline"),
            "read",
        ),
    ],
)
def test_sending_a_record_it_names_by_id_moves_it_along(name, description, props, kind):
    """PayPal's ``send_invoice(invoice_id)`` was a create: the invoice stayed a draft."""
    assert classify_tool(name, description, props) == kind


@pytest.mark.parametrize(
    ("name", "role"),
    [
        ("currency_code", "text"),
        ("currencyCode", "text"),
        ("country_code", "text"),
        ("postalCode", "text"),
        ("discount_code", "locator"),
        ("airport_code", "locator"),
        ("order_number", "locator"),
    ],
)
def test_a_code_from_a_standard_list_is_a_value_not_a_record(name, role):
    """PayPal's ``create_order(currencyCode="USD")`` treated USD as a record to find: "currency
    USD is already completed"."""
    assert argument_role(name, {"type": "string"}) == role


@pytest.mark.parametrize("name", ["sort_order", "sortOrder", "order_by", "orderBy", "sort_by"])
def test_how_a_list_is_ordered_is_no_order_to_find(name):
    """Zendesk's ``get_tickets(sort_order)`` was a locator: "Which sort order is this about?",
    and the world answered "sort order desc not found"."""
    assert argument_role(name, {"type": "string"}) == "text"
