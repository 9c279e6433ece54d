import whileai_env as wenv
from whileai_env.spec.clauses import clause_id


def test_preambles_and_headings_are_not_clauses():
    prompt = """# Support agent
You are a friendly support agent for Acme. Your job is to help customers.

Rules:
- Always verify the customer's email before changing an order.
- Never refund more than the order total.
1. Do not cancel shipped orders.
Customers are usually polite. Refunds must be logged.
"""
    texts = [c.text for c in wenv.split_policy(prompt)]
    assert texts == [
        "Always verify the customer's email before changing an order.",
        "Never refund more than the order total.",
        "Do not cancel shipped orders.",
        "Refunds must be logged.",
    ]


def test_clause_ids_depend_only_on_text():
    a = wenv.split_policy("- Never refund twice.\n- Always be brief.")
    b = wenv.split_policy("You are nice.\n\n- Always   be brief\n- Never refund twice.")
    assert {c.id for c in a} == {c.id for c in b}
    assert clause_id("Never refund twice.") == clause_id("never refund twice")
    assert clause_id("Never refund twice.") != clause_id("Never refund three times.")


def test_duplicate_clauses_collapse_and_empty_prompt():
    assert len(wenv.split_policy("- Never refund twice.\n- never refund twice")) == 1
    assert wenv.split_policy("") == ()
    assert wenv.split_policy("You are a helpful assistant.") == ()
