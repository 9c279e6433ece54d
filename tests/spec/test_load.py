import json

import pytest
import yaml

import whileai_env as wenv
from tests.conftest import ORDER_POLICY, ORDER_TOOLS
from whileai_env.errors import SpecError


def _tool(name, parameters=..., **extra):
    fn = {"name": name, "description": "x", **extra}
    if parameters is not ...:
        fn["parameters"] = parameters
    return fn


def test_both_tool_shapes_normalise_to_the_same_tool():
    wrapped = wenv.load_spec(tools=[ORDER_TOOLS[0]])
    bare = wenv.load_spec(tools=[ORDER_TOOLS[0]["function"]])
    assert wrapped.tools == bare.tools
    assert wrapped == bare and hash(wrapped) == hash(bare)


@pytest.mark.parametrize(
    ("label", "tool"),
    [
        ("no parameters key", _tool("ping_service")),
        ("empty parameters", _tool("get_status", {})),
        (
            "properties without type",
            _tool("get_thing", {"properties": {"x": {}, "y": {"description": "free"}}}),
        ),
        (
            "$defs and $ref",
            _tool(
                "create_user",
                {
                    "type": "object",
                    "$defs": {
                        "addr": {"type": "object", "properties": {"city": {"type": "string"}}}
                    },
                    "properties": {"address": {"$ref": "#/$defs/addr"}},
                },
            ),
        ),
        (
            "definitions and $ref",
            _tool(
                "create_note",
                {
                    "type": "object",
                    "definitions": {"tag": {"type": "string"}},
                    "properties": {
                        "tags": {"type": "array", "items": {"$ref": "#/definitions/tag"}}
                    },
                },
            ),
        ),
        (
            "oneOf and anyOf",
            _tool(
                "find_item",
                {
                    "type": "object",
                    "properties": {
                        "key": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                        "filter": {"anyOf": [{"type": "null"}, {"type": "object"}]},
                    },
                },
            ),
        ),
        (
            "nullable type list",
            _tool(
                "set_note", {"type": "object", "properties": {"note": {"type": ["string", "null"]}}}
            ),
        ),
        (
            "enum of integers",
            _tool(
                "set_priority",
                {"type": "object", "properties": {"level": {"type": "integer", "enum": [1, 2, 3]}}},
            ),
        ),
        ("dashed name", _tool("get-user-profile", {"type": "object", "properties": {}})),
        ("camelCase name", _tool("listInvoices", {"type": "object", "properties": {}})),
        (
            "strict",
            _tool(
                "get_order",
                {
                    "type": "object",
                    "properties": {"order_id": {"type": "string"}},
                    "required": ["order_id"],
                    "additionalProperties": False,
                },
                strict=True,
            ),
        ),
        (
            "MCP inputSchema",
            {
                "name": "read_file",
                "description": "Read a file",
                "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
            },
        ),
        (
            "Anthropic input_schema",
            {"name": "read_page", "input_schema": {"type": "object", "properties": {}}},
        ),
        ("type list with object", _tool("get_cfg", {"type": ["object"], "properties": {}})),
    ],
)
def test_messy_but_real_schemas_load(label, tool):
    spec = wenv.load_spec(tools=[tool])
    (loaded,) = spec.tools
    assert loaded.parameters.get("type") in ("object", ["object"]), label
    assert "properties" in loaded.parameters
    json.dumps(loaded.to_openai())


def test_strict_flag_survives_to_openai():
    spec = wenv.load_spec(
        tools=[_tool("get_order", {"type": "object", "properties": {}}, strict=True)]
    )
    assert spec.tools[0].strict is True
    assert spec.tools[0].to_openai()["function"]["strict"] is True


@pytest.mark.parametrize("key", ["outputSchema", "returns", "response"])
def test_output_schema_is_kept(key):
    tool = {
        "name": "get_balance",
        "description": "Balance",
        "parameters": {"type": "object", "properties": {}},
        key: {
            "type": "object",
            "properties": {"amount": {"type": "number"}},
            "required": ["amount"],
        },
    }
    spec = wenv.load_spec(tools=[tool])
    assert spec.tools[0].output_schema["properties"]["amount"]["type"] == "number"


@pytest.mark.parametrize(
    ("tool", "path_fragment", "message"),
    [
        (
            _tool("get_order", {"type": "object", "properties": {"order_id": {"type": "strin"}}}),
            "$.parameters.properties.order_id.type",
            "invalid JSON Schema",
        ),
        (
            _tool(
                "get_order",
                {"type": "object", "properties": {"n": {"type": "integer", "minimum": "zero"}}},
            ),
            "$.parameters.properties.n.minimum",
            "invalid JSON Schema",
        ),
        (
            _tool("get_order", {"type": "object", "required": "order_id"}),
            "$.parameters.required",
            "invalid JSON Schema",
        ),
        (
            _tool(
                "get_order", {"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}
            ),
            "$.parameters.properties.a.$ref",
            "does not resolve",
        ),
        (
            _tool(
                "get_order",
                {"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}},
            ),
            "$.parameters.properties.a.$ref",
            "outside the schema",
        ),
        (_tool("get_order", {"type": "string"}), "$.parameters.type", "must describe an object"),
        (_tool("get_order", "not a schema"), "$.parameters", "must be a JSON Schema object"),
    ],
)
def test_invalid_schema_names_tool_and_path(tool, path_fragment, message):
    with pytest.raises(SpecError) as info:
        wenv.load_spec(tools=[{"type": "function", "function": tool}])
    err = info.value
    assert err.tool == "get_order"
    assert err.path is not None and err.path.endswith(path_fragment.replace("$.", "", 1))
    assert "function" in err.path
    assert message in str(err)
    assert "get_order" in str(err)


def test_output_schema_errors_name_the_tool():
    tool = {"name": "get_balance", "parameters": {}, "returns": {"type": "nope"}}
    with pytest.raises(SpecError, match=r"get_balance.*returns\.type"):
        wenv.load_spec(tools=[tool])


@pytest.mark.parametrize(
    ("tools", "message"),
    [
        ([{"name": "get_order"}, {"name": "get_order"}], "duplicate tool name"),
        ([{"description": "no name"}], "has no name"),
        ([{"name": "bad name!"}], "letters, digits"),
        (["get_order"], "must be an object"),
        ([{"name": "x", "paramters": {}}], "unknown keys paramters"),
        ([], "has no tools"),
        ([{"type": "retrieval", "function": {"name": "x"}}], "must be 'function'"),
    ],
)
def test_bad_tool_lists_are_refused(tools, message):
    with pytest.raises(SpecError, match=message):
        wenv.load_spec(tools=tools)


def test_kind_classification_and_override():
    spec = wenv.load_spec(
        tools=[
            *ORDER_TOOLS,
            {"name": "sync"},
            {"name": "frobnicate", "description": "Retrieves data"},
        ]
    )
    kinds = {t.name: t.kind for t in spec.tools}
    assert kinds == {
        "get_order": "read",
        "list_orders": "read",
        "cancel_order": "update",
        "issue_refund": "create",
        "delete_address": "delete",
        "sync": "update",
        "frobnicate": "read",
    }
    overridden = wenv.load_spec(spec, kinds={"sync": "read", "issue_refund": "write"})
    assert overridden.tool("sync").kind == "read"
    assert overridden.tool("issue_refund").kind == "update"
    assert (
        overridden.tool("get_order").is_write is False and overridden.tool("sync").is_write is False
    )


def test_kind_override_errors():
    with pytest.raises(SpecError, match="not in the spec: nope"):
        wenv.load_spec(tools=ORDER_TOOLS, kinds={"nope": "read"})
    with pytest.raises(SpecError, match="unknown tool kind 'sideways'"):
        wenv.load_spec(tools=ORDER_TOOLS, kinds={"get_order": "sideways"})


def test_spec_is_immutable_and_hashable(order_spec):
    with pytest.raises(TypeError):
        order_spec.tools[0].parameters["type"] = "array"
    with pytest.raises(TypeError):
        order_spec.tools[0].parameters["properties"]["order_id"]["type"] = "integer"
    with pytest.raises(TypeError):
        order_spec.tools[0].parameters["required"].append("x")
    with pytest.raises(AttributeError):
        order_spec.system_prompt = "changed"
    assert {order_spec: 1}[wenv.load_spec(tools=ORDER_TOOLS, system_prompt=ORDER_POLICY)] == 1
    edited = wenv.load_spec(tools=ORDER_TOOLS, system_prompt=ORDER_POLICY + "- Be brief.\n")
    assert edited.content_hash != order_spec.content_hash
    openai = order_spec.openai_tools()
    openai[0]["function"]["parameters"]["type"] = "array"
    assert order_spec.tools[0].parameters["type"] == "object"


def test_spec_pickles(order_spec):
    import copy
    import pickle

    again = pickle.loads(pickle.dumps(order_spec))
    assert again == order_spec and again.tools == order_spec.tools
    assert copy.deepcopy(order_spec) == order_spec


def test_load_from_json_yaml_and_folder(tmp_path):
    data = {"name": "orders", "system_prompt": ORDER_POLICY, "tools": ORDER_TOOLS}
    (tmp_path / "s.json").write_text(json.dumps(data))
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(data))
    folder = tmp_path / "shop"
    folder.mkdir()
    (folder / "spec.yaml").write_text(
        yaml.safe_dump({"policy": ORDER_POLICY, "tools": ORDER_TOOLS})
    )
    (folder / "rubric.md").write_text("# Rubric\n- Look up before acting.\n")
    from_json = wenv.load_spec(tmp_path / "s.json")
    from_yaml = wenv.load_spec(str(tmp_path / "s.yaml"))
    from_folder = wenv.load_spec(folder)
    assert from_json == from_yaml
    assert from_folder.rubric.startswith("# Rubric")
    assert from_folder.name == "shop"
    assert from_folder.tools == from_json.tools
    assert wenv.load_spec(tmp_path / "s.json", rubric="be good").rubric == "be good"
    tools_only = tmp_path / "tools.json"
    tools_only.write_text(json.dumps(ORDER_TOOLS))
    assert len(wenv.load_spec(tools_only).tools) == 5


def test_file_errors_name_file_and_line(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "tools": [\n    {"name": "x",}\n  ]\n}\n')
    with pytest.raises(SpecError) as info:
        wenv.load_spec(broken)
    assert info.value.line == 3 and "broken.json:3" in str(info.value)
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_text("tools:\n  - name: x\n  bad: [\n")
    with pytest.raises(SpecError, match=r"bad\.yaml:\d+: invalid YAML"):
        wenv.load_spec(bad_yaml)
    with pytest.raises(SpecError, match="no such file"):
        wenv.load_spec(tmp_path / "missing.json")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SpecError, match=r"folder has no spec\.json"):
        wenv.load_spec(tmp_path / "empty")
    (tmp_path / "s.txt").write_text("{}")
    with pytest.raises(SpecError, match=r"must end in \.json"):
        wenv.load_spec(tmp_path / "s.txt")
    (tmp_path / "extra.json").write_text(json.dumps({"tools": ORDER_TOOLS, "toolz": []}))
    with pytest.raises(SpecError, match="unknown spec keys toolz"):
        wenv.load_spec(tmp_path / "extra.json")


def test_tool_errors_in_files_name_the_file(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(
        json.dumps(
            {
                "tools": [
                    {
                        "name": "get_order",
                        "parameters": {"type": "object", "properties": {"a": {"type": 3}}},
                    }
                ]
            }
        )
    )
    with pytest.raises(SpecError) as info:
        wenv.load_spec(path)
    assert str(path) in str(info.value) and info.value.tool == "get_order"
    assert info.value.path == "$.parameters.properties.a.type"


def test_non_string_prompt_refused():
    with pytest.raises(SpecError, match="system_prompt must be a string"):
        wenv.load_spec({"tools": ORDER_TOOLS, "system_prompt": ["a"]})


def test_mcp_tool_fields_the_world_does_not_use_are_accepted():
    tool = {
        "name": "read_file",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
        "execution": {"taskSupport": "forbidden"},
        "icons": [{"src": "x.png"}],
        "_meta": {"k": 1},
        "title": "Read file",
        "annotations": {"readOnlyHint": True},
    }
    spec = wenv.load_spec([tool])
    assert spec.tool("read_file").kind == "read"


def test_a_draft_07_schema_is_read_as_draft_07():
    params = {
        "type": "object",
        "properties": {
            "pair": {"type": "array", "items": [{"type": "number"}, {"type": "string"}]}
        },
    }
    spec = wenv.load_spec([{"name": "rank", "parameters": params}])
    assert spec.tool("rank").parameters["$schema"] == "http://json-schema.org/draft-07/schema#"
    world = wenv.World(spec)
    fits = world.call("rank", {"pair": [1, "a"]})
    assert (fits.get("error") or {}).get("code") != "rejected", fits
    assert (
        world.call("rank", {"pair": ["a", 1]})["error"]["code"] == "rejected"
    )  # tuple items, draft-07 style
    bad = {"type": "object", "properties": {"pair": {"type": "array", "items": 5}}}
    with pytest.raises(SpecError, match=r"invalid JSON Schema"):
        wenv.load_spec([{"name": "rank", "parameters": bad}])
