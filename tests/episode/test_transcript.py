import json

from whileai_env.episode.transcript import render_messages, render_tools


def test_tools_render_one_line_each_with_their_schema():
    tools = [
        {
            "type": "function",
            "function": {
                "name": "get_order",
                "description": "Look up an order.",
                "parameters": {"type": "object", "properties": {"id": {"type": "string"}}},
            },
        },
        {"name": "ping"},
    ]
    lines = render_tools(tools).splitlines()
    assert lines[0].startswith("- get_order: Look up an order. {")
    assert json.loads(lines[0].split(". ", 1)[1]) == tools[0]["function"]["parameters"]
    assert lines[1] == "- ping:  {}"


def test_messages_render_calls_and_results_in_order():
    messages = [
        {"role": "user", "content": "Where is order 7?"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "get_order", "arguments": '{"id": "7"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "name": "get_order", "content": '{"status": "ok"}'},
        {
            "role": "assistant",
            "content": "It shipped.",
            "tool_calls": [{"function": {"name": "note", "arguments": "not json"}}],
        },
    ]
    text = render_messages(messages)
    blocks = text.split("\n\n")
    assert blocks[0] == "user: Where is order 7?"
    assert (
        blocks[1]
        == 'assistant:\n<tool_call>{"name": "get_order", "arguments": {"id": "7"}}</tool_call>'
    )
    assert blocks[2] == 'tool[get_order]: {"status": "ok"}'
    assert blocks[3].endswith('<tool_call>{"name": "note", "arguments": "not json"}</tool_call>')
