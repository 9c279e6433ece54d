import json

from hypothesis import given, settings
from hypothesis import strategies as st

from whileai_env.episode.actions import Action, parse_action

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


def test_qwen_hermes_blocks_with_text_and_parallel_calls():
    text = (
        'Let me check both.\n<tool_call>\n{"name": "get_order", "arguments": {"order_id": "4412"}}\n</tool_call>\n'
        '<tool_call>{"name": "list_orders", "arguments": {"customer_email": "a@b.io"}}</tool_call>'
    )
    action = parse_action(text, prefix="call_3")
    assert action.content == "Let me check both."
    assert [c.name for c in action.tool_calls] == ["get_order", "list_orders"]
    assert [c.id for c in action.tool_calls] == ["call_3_0", "call_3_1"]
    assert action.tool_calls[1].arguments == {"customer_email": "a@b.io"}


def test_openai_message_dict_and_its_json_string():
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "abc",
                "type": "function",
                "function": {"name": "get_order", "arguments": '{"order_id": "1"}'},
            },
            {
                "id": "def",
                "type": "function",
                "function": {"name": "cancel_order", "arguments": {"order_id": "1"}},
            },
        ],
    }
    for action in (parse_action(message), parse_action(json.dumps(message))):
        assert action.content == ""
        assert [(c.id, c.name, c.arguments) for c in action.tool_calls] == [
            ("abc", "get_order", {"order_id": "1"}),
            ("def", "cancel_order", {"order_id": "1"}),
        ]
        assert action.to_message()["tool_calls"][0]["function"]["arguments"] == '{"order_id": "1"}'


def test_bare_and_fenced_json_calls():
    assert parse_action('{"name": "get_order", "arguments": {"order_id": "7"}}').tool_calls[
        0
    ].arguments == {"order_id": "7"}
    fenced = 'Sure.\n```json\n{"name": "get_order", "arguments": {"order_id": "7"}}\n```'
    action = parse_action(fenced)
    assert action.content == "Sure." and action.tool_calls[0].name == "get_order"
    llama = parse_action('{"name": "get_order", "parameters": {"order_id": "7"}}')
    assert llama.tool_calls[0].arguments == {"order_id": "7"}
    listed = parse_action('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]')
    assert [c.name for c in listed.tool_calls] == ["a", "b"]


def test_a_call_of_a_tool_without_arguments_may_give_its_name_alone():
    for action in ('{"name": "list_calendars"}', {"name": "list-calendars"}, '[{"name": "a.b"}]'):
        (call,) = parse_action(action).tool_calls
        assert (
            call.arguments == {}
            and call.error is None
            and call.name in ("list_calendars", "list-calendars", "a.b")
        )
    assert parse_action('{"name": "John Smith"}').content == '{"name": "John Smith"}'
    assert parse_action('{"name": "x", "age": 3}').tool_calls == ()


def test_malformed_calls_are_marked_not_raised():
    bad_json = parse_action("<tool_call>{name: get_order}</tool_call>").tool_calls[0]
    assert bad_json.error and "not valid JSON" in bad_json.error
    not_object = parse_action(
        {"tool_calls": [{"function": {"name": "f", "arguments": "[1, 2]"}}]}
    ).tool_calls[0]
    assert not_object.error == "arguments must be a JSON object, got list"
    no_name = parse_action({"tool_calls": [{"function": {"arguments": "{}"}}]}).tool_calls[0]
    assert no_name.error == "the tool call has no function name"
    unterminated = parse_action('<tool_call>{"name": "f", "arguments": {}}').tool_calls
    assert unterminated and unterminated[0].name == "f"


def test_a_call_whose_json_is_broken_is_a_malformed_call_fenced_bare_or_cut_short():
    """A user's model wrote its call in a fence with one brace short: it was read as a reply,
    the user closed, and the episode scored 0 with no error for the model to learn from."""
    call = '{"name": "get_order", "arguments": {"order_id": "4412"'
    for text in ("```json\n" + call + "\n```", "Checking.\n```json\n" + call + "},\n```", call):
        action = parse_action(text)
        assert len(action.tool_calls) == 1, text
        assert "not valid JSON" in (action.tool_calls[0].error or ""), text
    # broken JSON that names no tool and no arguments is still text
    assert parse_action('```json\n{"a": [1\n```').tool_calls == ()
    assert parse_action('{"total": 4,').tool_calls == ()


def test_plain_text_is_a_reply():
    assert parse_action("Your order shipped yesterday.") == Action(
        content="Your order shipped yesterday."
    )
    assert parse_action("{not json at all").content == "{not json at all"
    assert parse_action(None) == Action(content="")


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), JSONISH, st.binary(max_size=30)))
def test_parser_never_raises(value):
    action = parse_action(value)
    assert isinstance(action.content, str)
    json.dumps(action.to_message(), default=str)


@settings(max_examples=200, deadline=None)
@given(st.text(), JSONISH)
def test_parser_never_raises_inside_tool_call_blocks(prefix, payload):
    text = f"{prefix}<tool_call>{json.dumps(payload, default=str)}</tool_call>"
    for call in parse_action(text).tool_calls:
        assert isinstance(call.name, str)


def test_a_models_own_call_ids_are_kept_even_when_they_share_the_turns_prefix():
    calls = [
        {
            "id": "call_10_0",
            "type": "function",
            "function": {"name": "get_order", "arguments": "{}"},
        },
        {
            "id": "call_1_7",
            "type": "function",
            "function": {"name": "get_order", "arguments": "{}"},
        },
    ]
    action = parse_action(
        {"role": "assistant", "content": "", "tool_calls": calls}, prefix="call_1"
    )
    assert [c.id for c in action.tool_calls] == ["call_10_0", "call_1_7"]


def test_a_repeated_call_id_is_made_unique():
    call = {"id": "x", "type": "function", "function": {"name": "get_order", "arguments": "{}"}}
    action = parse_action(
        {"role": "assistant", "content": "", "tool_calls": [call, call]}, prefix="call_2"
    )
    assert [c.id for c in action.tool_calls] == ["x", "call_2_1"]
