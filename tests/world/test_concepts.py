"""Concepts are kept per field, and a field that cannot be a key is still answered."""

from whileai_env.world.concepts import field, number_concept, string_concept


def test_a_field_with_an_array_example_has_a_concept():
    f = field("command", {"type": "array", "description": "e.g. ['ls', '-la', '/app']"})
    f = f.__class__(**{**vars(f), "hints": f.hints.__class__(examples=(["ls", "-la"],))})
    assert string_concept(f) == string_concept(field("command", {}))
    assert number_concept(f) is None


def test_the_kept_concept_is_the_rules_answer():
    for name in ("email", "order_id", "start_date", "city", "amount", "page"):
        f = field(name, {"description": f"The {name}."})
        assert string_concept(f) == string_concept.__wrapped__(f)
        assert number_concept(f) == number_concept.__wrapped__(f)


def test_a_summary_its_description_calls_a_title_is_a_title():
    assert string_concept(field("summary", {"description": "Title of the event"})) == "title"
    assert (
        string_concept(field("summary", {"description": "Issue summary (its subject)"})) == "title"
    )
    assert string_concept(field("summary", {"description": "A summary of the findings"})) == "text"


def test_a_repositorys_owner_is_an_account_a_records_owner_a_person():
    beside_repo = field("owner", {"description": "Repository owner"}, siblings=frozenset({"repo"}))
    assert string_concept(beside_repo) == "username"
    assert string_concept(field("owner", {"description": "Who owns the ticket"})) == "person_name"


def test_a_field_its_description_calls_an_email_address_holds_one():
    """A mail filter's ``forward`` ("Email address to forward matching emails to") and ``cc``
    ("List of CC recipients") held ``worker-forward`` and ``frontend-cc`` in a user's spec."""
    forward = field("forward", {"description": "Email address to forward matching emails to"})
    assert string_concept(forward) == "email"
    assert string_concept(field("cc", {"description": "List of CC recipients"})) == "email"
    assert string_concept(field("forward", {"description": "Whether to forward it"})) != "email"


def test_run_together_field_names_are_read_by_their_words():
    """HubSpot-style ``closedate``, ``firstname``, ``jobtitle``, ``company`` held slugs
    ("frontend-closedate", "reports-company") in a user's CRM spec; words that only end like a
    field word stay whole."""
    assert string_concept(field("closedate", {"type": "string"})) == "date"
    assert string_concept(field("firstname", {"type": "string"})) == "first_name"
    assert string_concept(field("jobtitle", {"type": "string"})) == "job_title"
    assert string_concept(field("company", {"type": "string"})) == "company"
    for whole in ("candidate", "username", "velocity", "timestamp"):
        assert field(whole, {}).words == (whole,)
