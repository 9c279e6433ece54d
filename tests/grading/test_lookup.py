"""A rule asking for a look at a record before a write binds on every task that makes the write
(a user's Shopify-style spec: "Look up a product before updating it", and the oracle updated
after a listing of orders, or after nothing, and scored 1.0)."""

from __future__ import annotations

import json

import pytest

import whileai_env as wenv
from whileai_env.grading.checklist import task_checklist
from whileai_env.grading.lookup import looked_before, lookup_rules, name_things

PROMPT = "You run a shop's catalogue.\n- Look up a product before updating it."
PRODUCT = "gid://shopify/Product/210"
TOOLS = [
    {
        "name": "get-product-by-id",
        "description": "Get a specific product by ID",
        "parameters": {
            "type": "object",
            "properties": {"productId": {"type": "string", "description": "e.g. " + PRODUCT}},
            "required": ["productId"],
        },
    },
    {
        "name": "update-product",
        "description": "Update an existing product's title or status",
        "parameters": {
            "type": "object",
            "properties": {"id": {"type": "string"}, "title": {"type": "string"}},
            "required": ["id"],
        },
    },
    {
        "name": "get-orders",
        "description": "List the shop's orders",
        "parameters": {"type": "object", "properties": {}},
    },
]
KINDS = {"get-product-by-id": "read", "update-product": "update", "get-orders": "read"}
LOCATORS = {"get-product-by-id": ["productId"], "update-product": ["id"], "get-orders": []}


def _row(*calls: tuple[str, dict, dict], prompt: str = PROMPT) -> dict:
    """A row whose ask is to retitle product ``PRODUCT``, played as ``calls``."""
    messages: list[dict] = [
        {"role": "system", "content": prompt},
        {"role": "user", "content": f'Please rename product {PRODUCT} to "Blue mug".'},
    ]
    steps = []
    for i, (tool, args, result) in enumerate(calls):
        call = {"id": f"c{i}", "type": "function"}
        call["function"] = {"name": tool, "arguments": json.dumps(args)}
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "content": json.dumps(result)})
        steps.append(
            {
                "index": i,
                "tool": tool,
                "arguments": args,
                "result": result,
                "ok": result.get("status") == "ok",
                "error": None if result.get("status") == "ok" else "not_found",
                "fault": None,
                "kind": KINDS[tool],
                "call_id": f"c{i}",
            }
        )
    done = f'I have renamed product {PRODUCT} to "Blue mug".'
    messages.append({"role": "assistant", "content": done})
    return {
        "system_prompt": prompt,
        "messages": messages,
        "final_text": done,
        "tools": TOOLS,
        "scenario_dimensions": {"tool": "update-product", "stance": "ordinary", "ask": "tool"},
        "world": {
            "state": "exists",
            "targets": ["update-product"],
            "entities": {"id": PRODUCT},
            "details": {"update-product": {"title": "Blue mug"}},
        },
        "tool_kinds": KINDS,
        "tool_locators": LOCATORS,
        "locator_nouns": {
            "get-product-by-id": {"productId": "product"},
            "update-product": {"id": "product"},
        },
        "steps": steps,
    }


UPDATE = ("update-product", {"id": PRODUCT, "title": "Blue mug"}, {"status": "ok", "id": PRODUCT})
LOOK = (
    "get-product-by-id",
    {"productId": PRODUCT},
    {"status": "ok", "id": PRODUCT, "title": "Mug"},
)
ORDERS = ("get-orders", {}, {"status": "ok", "items": [{"order_id": "113210", "total": 5.0}]})


def test_a_write_with_no_look_first_fails_the_rule():
    graded = task_checklist(_row(UPDATE))
    assert graded["markers"]["looked_up_first"] == 0.0 and graded["reward"] == 0.0
    assert "wrote_without_looking" in graded["reason"]


@pytest.mark.parametrize(
    "rule",
    [
        # a user's Notion spec: "editing" and "appending" are any edit, not an act a call's
        # values must say (the rule went ungraded on every API-patch-page)
        "Always retrieve a product before editing its title or appending content to it.",
        "Never update a product without first reading it.",
    ],
)
def test_a_rule_worded_by_any_edit_binds_the_write(rule):
    prompt = f"You run a shop's catalogue.\n- {rule}"
    assert task_checklist(_row(UPDATE, prompt=prompt))["markers"]["looked_up_first"] == 0.0
    assert task_checklist(_row(LOOK, UPDATE, prompt=prompt))["markers"]["looked_up_first"] == 1.0


def test_a_read_of_the_record_by_another_argument_name_is_the_look():
    graded = task_checklist(_row(LOOK, UPDATE))
    assert graded["markers"]["looked_up_first"] == 1.0, graded["reason"]


def test_a_read_of_something_else_is_no_look():
    graded = task_checklist(_row(ORDERS, UPDATE))
    assert graded["markers"]["looked_up_first"] == 0.0


def test_a_look_that_failed_is_no_look():
    missing = ("get-product-by-id", {"productId": PRODUCT}, {"status": "error"})
    assert task_checklist(_row(missing, UPDATE))["markers"]["looked_up_first"] == 0.0


def test_without_the_rule_nothing_is_asked_for():
    graded = task_checklist(_row(UPDATE, prompt="You run a shop's catalogue."))
    assert "looked_up_first" not in graded["markers"]


@pytest.mark.parametrize(
    ("prompt", "looks"),
    [
        ("Always look up a product before updating it.", True),
        ("Check the order's current status before cancelling it.", True),
        ("Before deleting a file, read it first.", True),
        ("Never close a ticket without first reading its comments.", True),
        ("Only update a page after you have fetched it.", True),
        ("Search for an existing contact before creating a new one.", True),
        ("Confirm with the user before deleting an event.", False),
        ("Check with the customer before refunding.", False),
        ("Verify the customer's identity before making any change.", False),
        ("Be brief and friendly.", False),
        # a user's Kubernetes and GitLab specs: a look joined to a consent rule, a look "first"
        (
            "Always check the pod's status with pods_get before deleting it, and never delete "
            "a pod that is Running unless the user confirms.",
            True,
        ),
        ("Never merge a failing merge request; check it with get_merge_request first.", True),
        ("Never delete a running pod unless the user confirms it first.", False),
    ],
)
def test_which_clauses_ask_for_a_look_first(prompt, looks):
    assert bool(lookup_rules(prompt)) is looks


@pytest.mark.parametrize(
    ("prompt", "tools", "writes", "expected"),
    [
        (
            "Look up a page before updating it.",
            ["get_page"],
            ["update_page", "create_page", "delete_page"],
            ("update_page",),
        ),
        (
            "Before deleting a file, read it first.",
            ["read_file"],
            ["write_file", "delete_file"],
            ("delete_file",),
        ),
        # a look at a policy is not a look at a record
        ("Before making any change, read the policy.", ["get_order"], ["cancel_order"], ()),
        (
            "Never merge a failing merge request; check it with get_merge_request first.",
            ["get_merge_request"],
            ["create_merge_request", "merge_merge_request"],
            ("merge_merge_request",),
        ),
        (  # a user's Jira spec: "issue" was read as a verb and ``jira`` as the record
            "Always look up the issue with jira_get_issue before you update, assign or delete it.",
            ["jira_get_issue", "jira_search"],
            ["jira_update_issue", "jira_assign_issue", "jira_delete_issue", "jira_add_comment"],
            ("jira_update_issue", "jira_assign_issue", "jira_delete_issue"),
        ),
    ],
)
def test_which_writes_a_look_rule_governs(prompt, tools, writes, expected):
    assert looked_before(prompt, tools, {w: [] for w in writes}) == expected


def test_the_oracle_looks_first_and_scores_one_on_a_spec_with_the_rule():
    spec = wenv.load_spec(tools=TOOLS, system_prompt=PROMPT)
    data = wenv.simulate("oracle", spec=spec, budget=120, seed=0, fault_rate=0.0, quiet=True)
    graded = [(r, task_checklist(r)) for r in data.rows]
    updates = [(r, g) for r, g in graded if any(s["tool"] == "update-product" for s in r["steps"])]
    assert updates and all(g["markers"]["looked_up_first"] == 1.0 for _, g in updates)
    assert all(g["reward"] == 1.0 for _, g in graded), [
        g["reason"] for _, g in graded if g["reward"] < 1
    ]
    for row, _ in updates:
        tools = [s["tool"] for s in row["steps"]]
        assert "get-product-by-id" in tools[: tools.index("update-product")]


def _half_done(*calls: tuple[str, dict, dict]) -> dict:
    """The row of ``calls`` on a task whose earlier action was left half done, with no rule."""
    row = _row(*calls, prompt="You run a shop's catalogue.")
    row["world"]["state"] = "partial"
    return row


def test_a_half_done_write_is_looked_at_by_a_read_naming_its_record_apart():
    """``read_before_write`` reads the row's ``locator_nouns``: ``productId`` and ``id`` both
    name the product, and a listing of orders shows nothing of it."""
    assert task_checklist(_half_done(LOOK, UPDATE))["markers"]["read_before_write"] == 1.0
    assert task_checklist(_half_done(ORDERS, UPDATE))["markers"]["read_before_write"] == 0.0


def test_a_record_named_by_what_it_is_called_is_looked_up_by_those_values():
    """A user's Kubernetes spec: pods are named, not numbered, and "check the pod's status with
    pods_get before deleting it" went ungraded; once graded the oracle deleted blind (0.867)."""
    name = {"type": "string", "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"}
    pod = {
        "type": "object",
        "properties": {"namespace": name, "name": {**name, "description": "Name of the pod"}},
        "required": ["namespace", "name"],
    }
    spec = wenv.load_spec(
        tools=[
            {"name": "pods_get", "description": "Get a pod.", "parameters": pod},
            {"name": "pods_delete", "description": "Delete a pod.", "parameters": pod},
        ],
        system_prompt="Always check the pod's status with pods_get before deleting it, and never "
        "delete a pod that is Running unless the user confirms.",
    )
    rows = wenv.simulate("oracle", spec=spec, budget=80, seed=0, fault_rate=0.0, quiet=True).rows
    graded = [(r, task_checklist(r)) for r in rows]
    deletes = [(r, g) for r, g in graded if "looked_up_first" in g["markers"]]
    assert deletes and all(g["markers"]["looked_up_first"] == 1.0 for _, g in deletes)
    assert all(g["reward"] == 1.0 for _, g in graded), [g["reason"] for _, g in graded]
    row = deletes[0][0]
    row["steps"] = [s for s in row["steps"] if s["tool"] != "pods_get"]
    assert task_checklist(row)["markers"]["looked_up_first"] == 0.0


@pytest.mark.parametrize(
    ("tool", "things"),
    [
        ("search_contacts", {"contact"}),
        ("assign_issue", {"issue"}),  # a word that can be a verb is a thing after the verb
        ("create_draft", {"draft"}),
        ("issue_refund", {"refund"}),
        ("create_or_update_file", {"file"}),  # a second verb joined by "or" is no thing
        ("refund-create", {"refund"}),
        ("get_order_by_id", {"order"}),
    ],
)
def test_what_a_tools_name_speaks_of(tool, things):
    assert name_things(tool) == things


def test_a_service_word_the_names_share_is_no_thing():
    assert name_things("jira_assign_issue") == {"jira", "issue"}
    assert name_things("jira_assign_issue", frozenset({"jira"})) == {"issue"}


def test_a_rule_that_names_its_read_is_kept_by_that_read_alone():
    """Linear's "Always look up an issue with get_issue before changing it" was met by a
    ``list_issues`` of the issue's sub-issues (12 of 13 ``save_issue`` rows of a trial spec)."""
    prompt = "You run a shop's catalogue.\n- Always look up a product with get-product-by-id before updating it."
    listing = (
        "get-orders",
        {},
        {"status": "ok", "items": [{"order_id": "113210", "product": PRODUCT}]},
    )
    graded = task_checklist(_row(listing, UPDATE, prompt=prompt))
    assert graded["markers"]["looked_up_first"] == 0.0
    assert "get-product-by-id" in graded["reason"]
    assert task_checklist(_row(LOOK, UPDATE, prompt=prompt))["markers"]["looked_up_first"] == 1.0
    # the same listing meets a rule that names no read: it shows the product
    assert task_checklist(_row(listing, UPDATE))["markers"]["looked_up_first"] == 1.0


def test_a_write_on_another_kind_of_record_is_not_bound_by_the_rule():
    """Linear's ``save_comment(documentId=…)``, a comment on a document, was held to "look up an
    issue before you comment on it" (14 rows of a trial spec)."""
    prompt = "You help with a tracker.\n- Always look up an issue before you comment on it."
    comment = {
        "name": "save_comment",
        "description": "Comment on an issue or a document.",
        "parameters": {
            "type": "object",
            "properties": {
                "issueId": {"type": "string"},
                "documentId": {"type": "string"},
                "body": {"type": "string"},
            },
            "required": ["body"],
        },
    }
    read = {
        "name": "get_issue",
        "description": "Get an issue.",
        "parameters": {
            "type": "object",
            "properties": {"id": {"type": "string"}},
            "required": ["id"],
        },
    }
    spec = wenv.load_spec(tools=[comment, read], system_prompt=prompt)
    for args, bound in (
        ({"documentId": "doc_1", "body": "Hi"}, False),
        ({"issueId": "LIN-1", "body": "Hi"}, True),
    ):
        world = wenv.World(spec, seed=0)
        world.call("save_comment", args)
        row = {
            "system_prompt": prompt,
            "messages": [
                {"role": "system", "content": prompt},
                {"role": "user", "content": "Please add my comment."},
                {"role": "assistant", "content": "Done: I added your comment."},
            ],
            "final_text": "Done: I added your comment.",
            "tools": [t.to_openai() for t in spec.tools],
            "steps": world.ledger,
            "scenario_dimensions": {"tool": "save_comment", "stance": "ordinary", "ask": "tool"},
            "world": {
                "state": "exists",
                "targets": ["save_comment"],
                "entities": {k: v for k, v in args.items() if k != "body"},
                "details": {"save_comment": {"body": "Hi"}},
            },
            "tool_kinds": {"save_comment": "create", "get_issue": "read"},
            "tool_locators": {"save_comment": ["issueId", "documentId"], "get_issue": ["id"]},
            "locator_nouns": {
                "save_comment": {"issueId": "issue", "documentId": "document"},
                "get_issue": {"id": "issue"},
            },
        }
        marker = task_checklist(row)["markers"].get("looked_up_first")
        assert (marker == 0.0) is bound, (args, marker)
