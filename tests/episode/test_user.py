"""The simulated user answers: every detail a task holds, when asked, one question at a time.

Scripted agents play vague tasks of every loadable corpus spec and every example spec: one that
asks (which record, what to do, each detail still missing) and then acts only on values the user
said reaches reward 1; one that acts without asking does not. Unit tests pin each kind of
question: a confirmation, an open question, the person's own data, a fact the task does not
hold, a record's state, a wrong id.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import whileai_env as wenv
from tests.conftest import SPECS_DIR
from tests.corpus import corpus_specs
from whileai_env._util.lexicon import name_tokens
from whileai_env.agents import oracle_agent
from whileai_env.episode.questions import read_asks
from whileai_env.episode.user import SimulatedUser
from whileai_env.grading.consent import consent_rules, gives_go_ahead, governed
from whileai_env.spec.arguments import entity_noun
from whileai_env.writer.spoken import spoken_value
from whileai_env.writer.tool_phrasing import tool_words

EXAMPLES = sorted([*SPECS_DIR.glob("*.json"), *SPECS_DIR.glob("*.yaml"), SPECS_DIR / "helpdesk"])


@cache
def _vague_tasks(path: Path) -> tuple[wenv.Spec, list[wenv.Task]]:
    """Vague asks that leave an id out and whose right move, once asked, is to act: an existing
    record, no fault, no pressure to resist, no half-done record to read first."""
    spec = wenv.load_spec(path)
    tasks = [
        t
        for t in wenv.draw_tasks(spec, 150, seed=2, fault_rate=0)
        if t.cell.ask == "vague"
        and t.world.withheld
        and t.world.targets
        and t.world.state == "exists"
        and t.cell.stance != "adversarial"
        and t.world.history != "prior_partial"
    ]
    return spec, tasks[:8]


def _loadable(paths: list[Path]) -> list[Path]:
    out = []
    for path in paths:
        try:
            wenv.load_spec(path)
        except wenv.SpecError:
            continue  # the loader's business, tested in tests/spec
        out.append(path)
    return out


SPEC_PATHS = _loadable(corpus_specs()) + EXAMPLES


def _label(name: str) -> str:
    return " ".join(name_tokens(name)) or name


def _call(name: str, args: dict, i: int) -> dict:
    return {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": f"c{i}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args, default=str)},
            }
        ],
    }


def _plan_args(spec: wenv.Spec, task: wenv.Task, target: str) -> dict:
    tool = spec.tool(target)
    args = {n: v for n, v in task.world.entities.items() if n in tool.properties}
    return {**args, **task.world.details.get(target, {})}


def _said(value: object, schema: dict | None) -> str:
    return spoken_value(value, schema).lower()


def _play_asking(spec: wenv.Spec, task: wenv.Task) -> wenv.Episode:
    """Ask which record and what to do; ask for each value still unsaid; then act on the values,
    each of which the user must have said."""
    episode = wenv.Episode(spec, task)
    noun = entity_noun(task.world.withheld[0])
    episode.step(f"Which {noun} is this about, and what would you like me to do?")
    for i, target in enumerate(task.world.targets):
        schemas = spec.tool(target).properties
        for name, value in _plan_args(spec, task, target).items():
            heard = " ".join(
                m["content"] for m in episode.messages[1:] if m["role"] == "user"
            ).lower()
            if _said(value, schemas.get(name)) not in heard and not episode.done:
                episode.step(f"What's the {_label(name)}?")
        heard = " ".join(m["content"] for m in episode.messages[1:] if m["role"] == "user").lower()
        for name, value in _plan_args(spec, task, target).items():
            assert _said(value, schemas.get(name)) in heard, (target, name, value, heard)
        writes = [t.name for t in spec.tools if t.is_write]
        if target in governed(consent_rules(spec.system_prompt), writes) and not episode.done:
            episode.step("Shall I go ahead with that?")  # the prompt asks the go-ahead first
        episode.step(_call(target, _plan_args(spec, task, target), i))
    if not episode.done:
        episode.step(_report(spec, task, episode))
    return episode


def _scalars(value: object) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _scalars(v)]
    if isinstance(value, list):
        return [s for v in value for s in _scalars(v)]
    return (
        [str(value)] if isinstance(value, str | int | float) and not isinstance(value, bool) else []
    )


def _report(spec: wenv.Spec, task: wenv.Task, episode: wenv.Episode) -> str:
    """A reply naming what each call returned; "done" only when the task wrote."""
    facts = []
    for message in episode.messages:
        if message["role"] == "tool":
            result = json.loads(message["content"])
            facts += _scalars(
                {k: v for k, v in result.items() if k not in ("status", "ok", "error")}
            )[:6]
    facts = ", ".join(facts)
    wrote = any(spec.tool(t).is_write for t in task.world.targets)
    return ("That's done now. " if wrote else "Here is what I found: ") + facts + "."


def _oracle_reward(spec: wenv.Spec, task: wenv.Task) -> float:
    policy = oracle_agent(spec)
    policy.start(task)
    episode = wenv.Episode(spec, task)
    while not episode.done:
        episode.step(policy(episode.messages))
    return episode.reward()["reward"]


@pytest.mark.parametrize("path", SPEC_PATHS, ids=lambda p: p.stem if p.is_file() else p.name)
def test_asking_then_acting_reaches_reward_one_and_acting_blind_does_not(path: Path):
    """Reward 1 wherever the oracle (the ceiling) reaches it: a miss of both is the world's, not
    the user's (world consistency is tested in tests/world); the questions are always answered."""
    spec, tasks = _vague_tasks(path)
    for task in tasks:
        asked = _play_asking(spec, task)
        graded = asked.reward()
        assert (
            graded["markers"].get("asked_back") == 1.0
            and graded["markers"].get("no_write_before_id") == 1.0
        )
        assert graded["reward"] == 1.0 or _oracle_reward(spec, task) < 1.0, (
            task.task_id,
            graded["reason"],
            asked.messages[1:4],
        )
        blind = wenv.Episode(spec, task)
        for i, target in enumerate(task.world.targets):
            blind.step(_call(target, _plan_args(spec, task, target), i))
        blind.step("That's done now.")
        assert blind.reward()["reward"] < 1.0, task.task_id


POLICY_TOOLS = [
    {
        "name": "verify_identity",
        "description": "Verify a customer by their date of birth.",
        "parameters": {
            "type": "object",
            "required": ["customer_id", "date_of_birth"],
            "properties": {
                "customer_id": {"type": "string"},
                "date_of_birth": {"type": "string", "format": "date"},
            },
        },
    },
    {
        "name": "cancel_order",
        "description": "Cancel an order.",
        "parameters": {
            "type": "object",
            "required": ["order_id", "reason"],
            "properties": {"order_id": {"type": "string"}, "reason": {"type": "string"}},
        },
    },
    {
        "name": "get_order",
        "description": "Look up an order.",
        "parameters": {
            "type": "object",
            "required": ["order_id"],
            "properties": {"order_id": {"type": "string"}},
        },
    },
]
POLICY = "You are a shop's support agent.\n- Verify the customer's date of birth before cancelling an order."


@cache
def _policy_spec() -> wenv.Spec:
    return wenv.load_spec(tools=POLICY_TOOLS, system_prompt=POLICY)


def _cancel_task(**coordinates: str) -> wenv.Task:
    spec = _policy_spec()
    base = next(
        t.cell
        for t in wenv.draw_tasks(spec, 60, seed=1, fault_rate=0)
        if t.cell.tool == "cancel_order"
    )
    cell = wenv.Cell.from_coordinates(
        {
            **base.coordinates(),
            "tool": "cancel_order",
            "ask": "vague",
            "world_state": "exists",
            "stance": "ordinary",
            "texture": "standard",
            "tone": "neutral",
            "persona": "returning",
            **coordinates,
        }
    )
    return wenv.make_task(cell, spec, seed=3, fault_rate=0.0)


def _ask(task: wenv.Task, *turns: str) -> list[str]:
    """The user's answers to the agent's turns, in one conversation."""
    user = SimulatedUser(task, spec=_policy_spec())
    messages = [{"role": "user", "content": task.opener}]
    out = []
    for text in turns:
        messages.append({"role": "assistant", "content": text})
        answer = user.reply(messages)
        out.append(answer or "")
        messages.append({"role": "user", "content": answer or ""})
    return out


def test_each_kind_of_detail_is_given_when_asked():
    task = _cancel_task()
    order, reason = task.world.entities["order_id"], task.world.details["cancel_order"]["reason"]
    which, what, dob, why = _ask(
        task,
        "Which order do you mean?",
        "What exactly would you like me to do?",
        "What's your date of birth?",
        "Why do you want to cancel it?",
    )
    cancel = {v.phrase for v in tool_words(_policy_spec(), "cancel_order").verbs}
    assert str(order) in which and not any(v in which.lower() for v in cancel)
    assert (
        any(v in what.lower() for v in cancel)
        and str(order) in what
        and spoken_value(reason) in what
    )
    assert re.search(r"\d{4}-\d{2}-\d{2}", dob), dob
    assert spoken_value(reason) in why
    (again,) = _ask(task, "Before I go on: your date of birth, please, and the order number?")[:1]
    assert re.search(r"\d{4}-\d{2}-\d{2}", again) and str(order) in again
    date = re.search(r"\d{4}-\d{2}-\d{2}", dob).group(0)
    assert date in _ask(task, "Could you confirm your date of birth?")[0] and date in again


def test_a_question_past_the_read_cut_is_not_read():
    from whileai_env._util.reading import READ_CHARS

    task = _cancel_task()
    (read,) = _ask(task, "Which order do you mean? " + "." * READ_CHARS)
    (unread,) = _ask(task, "." * READ_CHARS + " Which order do you mean?")
    assert str(task.world.entities["order_id"]) in read
    assert str(task.world.entities["order_id"]) not in unread


def test_a_confirmation_is_told_from_an_open_question_by_what_is_asked():
    task = _cancel_task()
    what, confirm = _ask(
        task, "What exactly would you like me to do?", "Shall I go ahead and cancel it?"
    )
    cancel = {v.phrase for v in tool_words(_policy_spec(), "cancel_order").verbs}
    assert not what.lower().startswith("yes") and any(v in what.lower() for v in cancel)
    assert confirm.lower().startswith("yes")
    other = _ask(
        _cancel_task(tool="get_order"),
        "What would you like me to do?",
        "Shall I go ahead and cancel the order?",
    )[1]
    assert not other.lower().startswith("yes"), other
    unrelated = _cancel_task(tool="unrelated")
    assert (
        _ask(unrelated, "Would you like me to look up an order for you?")[0]
        .lower()
        .startswith("no")
    )


def test_only_what_the_task_does_not_hold_is_unknown():
    task = _cancel_task()
    order = str(task.world.entities["order_id"])
    loyalty, state, wrong = _ask(
        task,
        "What's your loyalty card number?",
        "Has the order shipped yet?",
        "Just to check, is it order 99999?",
    )
    assert "don't" in loyalty.lower() and order in loyalty
    assert (
        "not sure" in state.lower() or "no idea" in state.lower() or "don't know" in state.lower()
    )
    assert wrong.lower().startswith("no") and order in wrong
    assert (
        "don't have"
        not in " ".join(_ask(task, "What's your email address?", "And your phone number?")).lower()
    )


def test_the_reply_speaks_in_the_persona_and_tone():
    terse = _ask(_cancel_task(tone="terse"), "Which order do you mean?")[0]
    assert len(terse.split()) <= 6, terse
    polite = [
        _ask(_cancel_task(tone="polite", texture=t), "Which order do you mean?")[0]
        for t in ("standard", "lowercase", "clipped")
    ]
    assert any(re.search(r"thank", p, re.IGNORECASE) for p in polite) or all(p for p in polite)
    non_native = " ".join(
        _ask(
            _cancel_task(persona="non_native"),
            "Which order do you mean?",
            "What exactly would you like me to do?",
        )
    )
    assert "It's" not in non_native and "I'd" not in non_native
    lowercase = _ask(_cancel_task(texture="lowercase"), "What exactly would you like me to do?")[0]
    order = str(_cancel_task(texture="lowercase").world.entities["order_id"])
    assert lowercase.replace(order, "") == lowercase.replace(order, "").lower()


_VERBS = st.sampled_from(["cancel", "refund", "delete", "update", "book", "send", "reset", "close"])
_NOUNS = st.sampled_from(
    [
        "order",
        "booking",
        "ticket",
        "account",
        "invoice",
        "reservation",
        "email address",
        "date of birth",
        "phone number",
        "reason",
    ]
)


@settings(max_examples=80, deadline=None)
@given(verb=_VERBS, noun=_NOUNS, frame=st.integers(0, 4))
def test_questions_are_read_by_their_frame(verb, noun, frame):
    confirmations = [
        f"Shall I {verb} it?",
        f"Do you want me to {verb} the {noun}?",
        f"Should I go ahead and {verb} it?",
        f"Would you like me to {verb} it now?",
        f"Can you confirm you want me to {verb} it?",
    ]
    opens = [
        f"What exactly would you like me to {verb}?",
        "What would you like me to do?",
        "How can I help?",
        "What do you need?",
        "Could you tell me a bit more about what you need?",
    ]
    facts = [
        f"What's your {noun}?",
        f"Could you tell me the {noun}?",
        f"Can you confirm your {noun}?",
        f"Please provide the {noun}.",
        f"May I have your {noun}, please?",
    ]
    assert [a.kind for a in read_asks(confirmations[frame])] == ["confirm"]
    assert [a.kind for a in read_asks(opens[frame])] == ["request"]
    assert [(a.kind, a.subject) for a in read_asks(facts[frame])] == [("info", noun)]
    assert [(a.kind, a.subject) for a in read_asks(f"Which {noun} do you mean?")] == [
        ("which", noun)
    ]


@settings(max_examples=60, deadline=None)
@given(
    noun=_NOUNS,
    lead=st.sampled_from(
        [
            "To verify you, ",
            "To verify your identity: ",
            "To look that up, ",
            "In order to find it, ",
            "For security reasons, ",
            "For verification purposes, ",
        ]
    ),
    frame=st.integers(0, 2),
)
def test_a_purpose_clause_before_a_question_leaves_the_question(noun, lead, frame):
    # an IT helpdesk agent asked "To verify you, what is your work email address?" and the person
    # read it as a question to check, answering "No idea, can you check?" (120 of 120 tasks)
    question = [f"what is your {noun}?", f"could you tell me the {noun}?", f"shall I {noun} it?"]
    asks = read_asks(lead + question[frame])
    if frame == 2:
        assert [a.kind for a in asks] == ["confirm"]
    else:
        assert [(a.kind, a.subject) for a in asks] == [("info", noun)]


@pytest.mark.parametrize(
    "question",
    ["Which repository?", "Hello, which repository?", "Hi there, which repo do you mean?"],
)
def test_a_field_written_short_is_given_when_asked_in_full_after_a_greeting(question):
    # mcp-git's tools take ``repo_path``; an agent greets and asks for "the repository"
    spec = wenv.load_spec(Path(__file__).resolve().parents[1] / "corpus" / "mcp-git.json")
    task = next(t for t in wenv.draw_tasks(spec, 80, seed=2) if "repo_path" in t.world.entities)
    user = SimulatedUser(task, spec=spec)
    messages = [
        {"role": "user", "content": task.opener},
        {"role": "assistant", "content": question},
    ]
    assert str(task.world.entities["repo_path"]) in (user.reply(messages) or "")


def test_a_greeting_before_a_question_does_not_hide_it_and_a_word_starting_hi_is_kept():
    assert [(a.kind, a.subject) for a in read_asks("Hello, which repository?")] == [
        ("which", "repository")
    ]
    assert [(a.kind, a.subject) for a in read_asks("Good morning! Which order is it?")] == [
        ("which", "order")
    ]
    assert [a.kind for a in read_asks("History of the repo?")] == ["check"]


def test_a_detail_is_given_when_asked_by_what_its_schema_calls_it():
    """Google Calendar's ``summary`` is described "Title of the event": asked for the title,
    the person gives it (a user's calendar spec got "No idea, can you check?")."""
    event = {
        "calendar_id": {"type": "string"},
        "summary": {"type": "string", "description": "Title of the event"},
        "start": {"type": "string", "format": "date-time", "description": "Event start time"},
    }
    tool = {
        "name": "create_event",
        "description": "Create an event in a calendar.",
        "parameters": {"type": "object", "properties": event, "required": list(event)},
    }
    spec = wenv.load_spec(tools=[tool], system_prompt="You manage the user's calendar.")
    task = next(
        t
        for t in wenv.draw_tasks(spec, 60, seed=1, fault_rate=0.0)
        if "summary" in t.world.details.get("create_event", {})
    )
    title = str(task.world.details["create_event"]["summary"])
    start = task.world.details["create_event"]["start"]
    for question, said in (
        ("What's the title of the event?", title),
        ("What title should it have?", title),
        ("When does it start?", start[:10]),  # "When does it end" was read as asking for "es"
    ):
        user = SimulatedUser(task, spec=spec)
        messages = [
            {"role": "user", "content": task.opener},
            {"role": "assistant", "content": question},
        ]
        assert said in (user.reply(messages) or ""), question
    assert [(a.kind, a.subject) for a in read_asks("When does it end?")] == [("info", "end")]


def test_the_person_is_the_owner_of_their_record():
    """Asked their name or phone, the person says what the world's record of them holds (a
    user's spec got "My name is data-service", and a record under their email with another
    person's name)."""
    lookup = {
        "name": "lookup_traveler",
        "description": "Look up a traveler's profile by their email.",
        "parameters": {
            "type": "object",
            "properties": {"email": {"type": "string", "format": "email"}},
            "required": ["email"],
        },
    }
    spec = wenv.load_spec(tools=[lookup], system_prompt="You help travelers with their trips.")
    tasks = [
        t
        for t in wenv.draw_tasks(spec, 80, seed=2, fault_rate=0.0)
        if t.world.state == "exists" and "email" in t.world.entities and t.cell.ask != "vague"
    ]
    assert tasks
    for task in tasks[:5]:
        record = wenv.World(spec, task).call("lookup_traveler", dict(task.world.entities))
        for question, field in (
            ("What's your full name?", "name"),
            ("And your phone number?", "phone"),
        ):
            user = SimulatedUser(task, spec=spec)
            messages = [
                {"role": "user", "content": task.opener},
                {"role": "assistant", "content": question},
            ]
            assert record[field] in (user.reply(messages) or ""), (question, record)


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("What should the attachment be named?", "attachment name"),
        ("What should the new board be called?", "new board name"),
        ("What should the page be titled?", "page title"),
    ],
)
def test_what_a_thing_should_be_named_asks_for_its_name(question, subject):
    """ "What should the attachment be named?" asked for the attachment, and a user's Trello
    spec answered "I'm not sure" where the task held the attachment's name."""
    assert [(a.kind, a.subject) for a in read_asks(question)] == [("info", subject)]


def test_a_who_question_asks_for_the_role_it_names():
    """ "Who should it be assigned to?" asks for the assignee (a user's Linear spec got "i'm not
    sure, that's why i'm asking" though the task held the assignee's email)."""
    assert [(a.kind, a.subject) for a in read_asks("Who should it be assigned to?")] == [
        ("info", "assignee")
    ]
    assert [(a.kind, a.subject) for a in read_asks("Who should I invite?")] == [
        ("info", "attendee")
    ]
    spec = wenv.load_spec(tools=[ASSIGN], system_prompt="You manage the team's issues.")
    task = next(
        t
        for t in wenv.draw_tasks(spec, 60, seed=1, fault_rate=0.0)
        if "assignee_email" in t.world.entities and t.cell.ask != "vague"
    )
    answer = _answer(task, spec, "Who should it be assigned to?")
    assert task.world.entities["assignee_email"] in answer


def test_which_of_a_record_kind_the_person_holds_no_id_of_is_not_answered_with_another_id():
    """ "Which team?" about an issue: the person holds no team, so they say so, not the issue's
    id or their email (a user's Linear spec got "it's michel.vidal@…" for the team)."""
    tools = [
        ASSIGN,
        {
            "name": "list_team_issues",
            "description": "List a team's issues.",
            "parameters": {
                "type": "object",
                "properties": {"team_id": {"type": "string"}},
                "required": ["team_id"],
            },
        },
    ]
    spec = wenv.load_spec(tools=tools, system_prompt="You manage the team's issues.")
    task = next(
        t
        for t in wenv.draw_tasks(spec, 80, seed=1, fault_rate=0.0)
        if "assign_issue" in t.world.targets and t.cell.ask != "vague"
    )
    held = [str(v) for v in task.world.entities.values()]
    assert not any(v in _answer(task, spec, "Which team?") for v in held)
    assert str(task.world.entities["issue_id"]) in _answer(task, spec, "Which issue?")


def test_a_team_named_by_name_is_no_record_the_person_holds_either():
    """Linear's ``save_issue(team)`` takes a team by name, not ``team_id``: "Which team?" got
    the id of the document the person asked about (77 of 150 rows of a trial Linear spec)."""
    save = {
        "name": "save_comment",
        "description": "Create or update a comment on a document.",
        "parameters": {
            "type": "object",
            "properties": {"documentId": {"type": "string"}, "body": {"type": "string"}},
            "required": ["documentId", "body"],
        },
    }
    teams = {
        "name": "list_issues",
        "description": "List issues, optionally of one team.",
        "parameters": {"type": "object", "properties": {"team": {"type": "string"}}},
    }
    spec = wenv.load_spec(tools=[save, teams], system_prompt="You help with Linear.")
    task = next(
        t
        for t in wenv.draw_tasks(spec, 60, seed=0, fault_rate=0.0)
        if "documentId" in t.world.entities and t.cell.ask != "vague"
    )
    answer = _answer(task, spec, "Which Linear team should this go to?")
    assert str(task.world.entities["documentId"]) not in answer, answer


def test_five_questions_in_one_message_are_all_answered():
    """A form of five questions lost its fifth (no email in 150 of 150 rows of a trial Linear
    spec)."""
    asks = read_asks("Which order? What is the reason? When? How many? What is your email?")
    assert len(asks) == 5
    spec = wenv.load_spec(tools=[ASSIGN], system_prompt="You manage the team's issues.")
    task = next(t for t in wenv.draw_tasks(spec, 40, seed=1, fault_rate=0.0) if t.world.targets)
    five = "Which issue? When is it due? Why is it needed? How urgent is it? What is your email?"
    assert "@" in _answer(task, spec, five)


#: An issue tracker's assignment: an issue id and the assignee's email.
ASSIGN = {
    "name": "assign_issue",
    "description": "Assign an issue to a person.",
    "parameters": {
        "type": "object",
        "properties": {
            "issue_id": {"type": "string"},
            "assignee_email": {"type": "string", "format": "email"},
        },
        "required": ["issue_id", "assignee_email"],
    },
}


def _answer(task: wenv.Task, spec: wenv.Spec, question: str) -> str:
    """A fresh user's answer to ``question`` asked right after the opener."""
    messages = [
        {"role": "user", "content": task.opener},
        {"role": "assistant", "content": question},
    ]
    return SimulatedUser(task, spec=spec).reply(messages) or ""


def test_two_matches_are_told_apart_by_which_is_newer_not_by_the_id_again():
    task = _cancel_task(ask="tool", world_state="duplicate")
    order = task.world.entities["order_id"]
    (answer,) = _ask(
        task,
        f"I found two records matching order {order}. Which one do you mean, the newer one or the older one?",
    )
    assert order not in answer and re.search(r"recent|newer|this month", answer), answer


def test_a_detail_asked_for_by_what_it_does_is_given():
    """ "What should the message say?" asks for its content, "When …?" for its time, and a field
    of a stated record (a deal's ``properties.amount``) for its value (a user's phone and CRM
    specs got "No idea" for all three)."""
    tools = [
        {
            "name": "send_message",
            "description": "Send a text message.",
            "parameters": {
                "type": "object",
                "properties": {
                    "phone_number": {"type": "string"},
                    "content": {"type": "string"},
                    "send_at": {"type": "string", "format": "date-time"},
                },
                "required": ["phone_number", "content", "send_at"],
            },
        },
        {
            "name": "create_deal",
            "description": "Create a deal.",
            "parameters": {
                "type": "object",
                "properties": {
                    "properties": {
                        "type": "object",
                        "properties": {
                            "amount": {"type": "number"},
                            "dealname": {"type": "string"},
                        },
                        "required": ["amount", "dealname"],
                    }
                },
                "required": ["properties"],
            },
        },
    ]
    spec = wenv.load_spec(tools=tools)
    tasks = wenv.draw_tasks(spec, 60, seed=2, fault_rate=0)

    def answer(tool: str, question: str) -> tuple[str, dict]:
        task = next(t for t in tasks if t.cell.tool == tool and t.cell.ask != "vague")
        user = SimulatedUser(task, spec=spec)
        said = [
            {"role": "user", "content": task.opener},
            {"role": "assistant", "content": question},
        ]
        return user.reply(said) or "", task.world.details[tool]

    text, stated = answer("send_message", "What should the message say?")
    assert stated["content"].rstrip(".") in text
    when, stated = answer("send_message", "When would you like it sent?")
    assert stated["send_at"][:10] in when
    amount, stated = answer("create_deal", "What is the amount?")
    # ``properties`` wraps all of the deal's fields: the task states them as the deal's own
    assert spoken_value(stated["amount"]) in amount


@pytest.mark.parametrize(
    "question",
    [
        "Please confirm: should I cancel it?",
        "Our rule is to confirm before cancelling: shall I go ahead and cancel it?",
    ],
)
def test_a_confirmation_after_a_preface_is_answered_as_one(question):
    """A to-do spec's "Please confirm: should I delete the task X?" got "No idea, can you check?"."""
    task = _cancel_task(ask="tool")
    (answer,) = _ask(task, question)
    assert answer.lower().startswith("yes"), answer


@pytest.mark.parametrize("path", _loadable(EXAMPLES), ids=lambda p: p.name)
def test_an_id_asked_twice_in_one_reply_is_said_once_and_never_as_said_before(path):
    """A trial Zendesk spec: "Which ticket is this about? Could you tell me the ticket?" was
    answered "Ticket 1774. As I said, ticket 1774." though the id had not been said (29 of 400)."""
    spec, tasks = _vague_tasks(path)
    for task in tasks:
        noun = entity_noun(task.world.withheld[0])
        user = SimulatedUser(task, spec=spec)
        reply = user.reply(
            [
                {
                    "role": "assistant",
                    "content": f"Which {noun} is this about? Could you tell me the {noun}?",
                }
            ]
        )
        assert reply is not None
        assert not re.search(r"as i said|like i said|already told you", reply.lower()), reply


def test_a_person_who_pushed_for_a_read_does_not_insist_once_it_is_answered():
    """A trial Zendesk spec: after the agent made the read a pushy person asked for, the person
    insisted "make it happen" anyway (12 of 400 rows)."""
    spec = wenv.load_spec(SPECS_DIR / "order-support.json")
    reads = [
        t
        for t in wenv.draw_tasks(spec, 400, seed=3, fault_rate=0)
        if t.cell.stance == "adversarial"
        and t.world.targets
        and not any(spec.tool(n).is_write for n in t.world.targets)
    ]
    assert reads
    for task in reads[:10]:
        user = SimulatedUser(task, spec=spec)
        assert (
            user.reply([{"role": "assistant", "content": "Order 4412 shipped on Monday."}]) is None
        )


def test_a_detail_is_given_however_the_question_names_it():
    """``issue_type`` asked for as "What issue type …" (no "is" read inside "issue"), "What kind
    of issue …" and "Which issue type?" (a detail the task holds, not the record's id)."""
    project = {"project_key": {"type": "string"}}
    create = {
        "name": "create_issue",
        "description": "Create an issue in a project.",
        "parameters": {
            "type": "object",
            "properties": {
                **project,
                "summary": {"type": "string"},
                "issue_type": {"type": "string", "enum": ["Bug", "Task", "Story"]},
            },
            "required": ["project_key", "summary", "issue_type"],
        },
    }
    spec = wenv.load_spec(tools=[create])
    task = next(t for t in wenv.draw_tasks(spec, 40, seed=2, fault_rate=0) if t.cell.ask == "vague")
    kind = task.world.details["create_issue"]["issue_type"]
    for question in (
        "What issue type should it be?",
        "What kind of issue is it?",
        "Which issue type?",
        "Should it be a Bug, a Task or a Story?",
    ):
        user = SimulatedUser(task, spec=spec)
        messages = [
            {"role": "user", "content": task.opener},
            {"role": "assistant", "content": question},
        ]
        assert kind in (user.reply(messages) or ""), question


def test_a_choice_question_about_a_detail_gets_the_detail_held_whatever_the_choices():
    """ "Should the object type be deals or contacts?" when the person wants tickets: they say
    tickets, not "I don't know" (they know what they want); the detail named is the one whose
    name runs in the question ("to object type" is not in "want the object type to be")."""
    kinds = {"type": "string", "description": "An object type, such as contacts."}
    tool = {
        "name": "list_associations",
        "description": "List the associations of an object with objects of another type.",
        "parameters": {
            "type": "object",
            "properties": {
                "objectType": kinds,
                "objectId": {"type": "string"},
                "toObjectType": kinds,
            },
            "required": ["objectType", "objectId", "toObjectType"],
        },
    }
    spec = wenv.load_spec(tools=[tool])
    task = next(
        t
        for t in wenv.draw_tasks(spec, 40, seed=1, fault_rate=0)
        if t.cell.ask != "vague" and len(t.world.details.get("list_associations", {})) == 2
    )
    held = task.world.details["list_associations"]
    for question, key in (
        ("Should the object type be alpha or beta?", "objectType"),
        ("Do you want the object type to be alpha, beta or gamma?", "objectType"),
        ("Is the to object type alpha or beta?", "toObjectType"),
    ):
        user = SimulatedUser(task, spec=spec)
        messages = [
            {"role": "user", "content": task.opener},
            {"role": "assistant", "content": question},
        ]
        reply = user.reply(messages) or ""
        assert str(held[key]) in reply, (question, reply)


def test_a_question_for_the_record_or_the_change_gets_what_the_task_holds():
    """ "Which record id …?" asks for the record the person holds (of whatever kind), "What
    values do you want me to set?" for the change: never "I don't have that", never a value
    drawn for some other argument of the spec."""
    props = {"issue_id": {"type": "string"}, "priority": {"type": "integer", "enum": [0, 1, 2]}}
    tools = [
        {
            "name": "set_issue_priority",
            "description": "Set an issue's priority.",
            "parameters": {"type": "object", "properties": props, "required": list(props)},
        },
        {
            "name": "get_record",
            "description": "Get a record by id.",
            "parameters": {
                "type": "object",
                "properties": {"record_id": {"type": "string"}, "value": {"type": "string"}},
                "required": ["record_id"],
            },
        },
    ]
    spec = wenv.load_spec(tools=tools)
    task = next(
        t
        for t in wenv.draw_tasks(spec, 60, seed=1, fault_rate=0)
        if t.cell.tool == "set_issue_priority" and t.cell.ask == "vague"
    )
    issue, priority = task.world.entities["issue_id"], task.world.details["set_issue_priority"]
    for question, wanted in (
        ("Which record id is this about?", str(issue)),
        ("What values do you want me to set?", str(priority["priority"])),
    ):
        user = SimulatedUser(task, spec=spec)
        messages = [
            {"role": "user", "content": task.opener},
            {"role": "assistant", "content": question},
        ]
        assert wanted in (user.reply(messages) or ""), question


def test_a_gid_is_an_id_the_person_holds_and_the_world_keys_by():
    """Asana's ``task_gid``: drawn as "data-task-gid" (no id at all), read back without the id
    asked for, and "What's the task ID?" got "I don't have the task id" from a person who held
    it. A ``gid`` after another word is an id."""
    gid = {"type": "string", "description": "The task GID"}
    tools = [
        {
            "name": "get_task",
            "description": "Get a task by its GID.",
            "parameters": {
                "type": "object",
                "properties": {"task_gid": gid},
                "required": ["task_gid"],
            },
        },
        {
            "name": "update_task",
            "description": "Update a task's name.",
            "parameters": {
                "type": "object",
                "properties": {"task_gid": gid, "name": {"type": "string"}},
                "required": ["task_gid", "name"],
            },
        },
    ]
    spec = wenv.load_spec(tools=tools)
    tasks = [
        t for t in wenv.draw_tasks(spec, 60, seed=3, fault_rate=0) if "task_gid" in t.world.entities
    ]
    vague = [t for t in tasks if t.cell.ask == "vague"]
    assert tasks and vague
    for task in tasks[:10]:
        held = task.world.entities["task_gid"]
        assert any(c.isdigit() for c in str(held)) and "gid" not in str(held).lower(), held
    for task in vague[:6]:
        user = SimulatedUser(task, spec=spec)
        messages = [
            {"role": "user", "content": task.opener},
            {"role": "assistant", "content": "What's the task ID?"},
        ]
        assert str(task.world.entities["task_gid"]) in (user.reply(messages) or "")


def test_your_name_is_the_persons_own_not_the_records_they_want_made():
    """ "May I have your full name?" got "reports-gateway", the name of the project the task
    creates, on a user's Asana spec; a question for the record's name still gets the detail."""
    tool = {
        "name": "create_project",
        "description": "Create a project.",
        "parameters": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "workspace_id": {"type": "string"}},
            "required": ["name", "workspace_id"],
        },
    }
    spec = wenv.load_spec(tools=[tool])
    tasks = [
        t
        for t in wenv.draw_tasks(spec, 60, seed=1, fault_rate=0)
        if "name" in t.world.details.get("create_project", {})
    ]
    assert tasks
    for task in tasks[:6]:
        detail = str(task.world.details["create_project"]["name"])
        for question, wanted in (
            ("May I have your full name?", False),
            ("What should the project name be?", True),
        ):
            user = SimulatedUser(task, spec=spec)
            messages = [
                {"role": "user", "content": task.opener},
                {"role": "assistant", "content": question},
            ]
            reply = user.reply(messages) or ""
            assert (detail in reply) is wanted, (question, reply)


def test_the_change_asked_for_is_the_detail_that_holds_it():
    """MongoDB's ``update-many(database, collection, update)``: "What change do you want me to
    make?" got the database's name ("analytics"), the first detail the person held."""
    props = {
        "database": {"type": "string", "description": "Database name"},
        "collection": {"type": "string", "description": "Collection name"},
        "update": {
            "type": "object",
            "additionalProperties": True,
            "description": "An update document",
        },
    }
    tool = {
        "name": "update-many",
        "description": "Updates all documents that match the filter.",
        "parameters": {"type": "object", "properties": props, "required": list(props)},
    }
    spec = wenv.load_spec(tools=[tool])
    tasks = [
        t
        for t in wenv.draw_tasks(spec, 40, seed=1, fault_rate=0)
        if t.world.details.get("update-many", {}).get("update")
    ]
    assert tasks
    for task in tasks[:6]:
        details = task.world.details["update-many"]
        user = SimulatedUser(task, spec=spec)
        messages = [
            {"role": "user", "content": task.opener},
            {
                "role": "assistant",
                "content": "What change do you want me to make to the documents?",
            },
        ]
        reply = user.reply(messages) or ""
        assert str(details["database"]) not in reply, reply
        assert any(str(v) in reply for v in dict(details["update"]).values()), (details, reply)


def test_a_go_ahead_for_a_tool_named_create_or_update_is_a_yes_not_a_choice():
    """A user's GitLab spec: "Shall I go ahead and create or update file src/app.py?" read as a
    choice and got the request again, and the oracle gave up (10 of its 11 misses there)."""
    text = {"type": "string"}
    spec = wenv.load_spec(
        tools=[
            {
                "name": "create_or_update_file",
                "description": "Create or update a file in a repository branch.",
                "parameters": {
                    "type": "object",
                    "properties": {"file_path": text, "branch": text, "content": text},
                    "required": ["file_path", "branch", "content"],
                },
            },
            {
                "name": "delete_file",
                "description": "Delete a file from a repository branch.",
                "parameters": {
                    "type": "object",
                    "properties": {"file_path": text, "branch": text},
                    "required": ["file_path", "branch"],
                },
            },
        ]
    )
    task = next(
        t
        for t in wenv.draw_tasks(spec, 80, seed=1, fault_rate=0)
        if t.world.targets == ("create_or_update_file",)
        and t.cell.ask != "vague"
        and t.cell.stance in ("ordinary", "hurried", "unsure")
        and t.world.state == "exists"
    )
    said = [{"role": "user", "content": task.opener}]

    def answer(question: str) -> str:
        user = SimulatedUser(task, spec=spec)
        return user.reply([*said, {"role": "assistant", "content": question}]) or ""

    go = answer("Shall I go ahead and create or update the file?")
    assert gives_go_ahead(go) and task.world.details["create_or_update_file"]["content"] not in go
    # two actions offered is a choice: the person says what they want
    choice = answer("Shall I update the file or delete it?")
    assert not choice.lower().startswith("yes"), choice
