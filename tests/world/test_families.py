"""Result families from evidence: computations answer with computed values, the calculator only
takes an expression, and file and shell tools find their arguments by role, not by name."""

from __future__ import annotations

import pytest

import whileai_env as wenv

NUM = {"type": "number"}
STR = {"type": "string"}


def _tool(name, description="", required=None, output=None, **props):
    tool = {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": props, "required": list(required or props)},
    }
    if output is not None:
        tool["outputSchema"] = output
    return tool


MATH = [
    _tool("add", "Add two numbers.", a=NUM, b=NUM),
    _tool("subtract", "", required=["minuend", "subtrahend"], minuend=NUM, subtrahend=NUM),
    _tool(
        "mean", "Calculate the mean of a list of numbers.", numbers={"type": "array", "items": NUM}
    ),
    _tool("standard_deviation", "", numbers={"type": "array", "items": NUM}),
    _tool("gallon_to_liter", "Converts gallons to liters.", gallon=NUM),
    _tool(
        "convert_units", "Convert a quantity between units.", value=NUM, from_unit=STR, to_unit=STR
    ),
    _tool(
        "compute_exchange_rate",
        "",
        required=["base_currency", "target_currency"],
        base_currency=STR,
        target_currency=STR,
        value=NUM,
    ),
    _tool("calculate", "Evaluate an arithmetic expression.", expression=STR),
    _tool(
        "calc",
        "",
        required=["x", "y", "operation"],
        x=NUM,
        y=NUM,
        operation={"type": "string", "enum": ["add", "multiply"]},
    ),
    _tool(
        "divide",
        "",
        output={"type": "object", "properties": {"quotient": NUM}, "required": ["quotient"]},
        a=NUM,
        b=NUM,
    ),
]


@pytest.fixture
def math_world() -> wenv.World:
    return wenv.World(MATH, seed=3)


def test_math_tools_answer_with_the_computed_number_not_a_record(math_world):
    assert math_world.call("add", {"a": 2.5, "b": 4}) == {"status": "ok", "result": 6.5}
    assert math_world.call("subtract", {"minuend": 10, "subtrahend": 3})["result"] == 7
    assert math_world.call("mean", {"numbers": [1, 2, 3, 4]})["result"] == 2.5
    assert (
        math_world.call("standard_deviation", {"numbers": [2, 4, 4, 4, 5, 5, 7, 9]})["result"] == 2
    )
    assert math_world.call("calc", {"x": 3, "y": 4, "operation": "multiply"})["result"] == 12
    assert set(math_world.call("mean", {"numbers": [1]})) == {
        "status",
        "result",
    }  # no record_id, no record_status
    assert {
        math_world._profile.tools[name].family for name in ("add", "subtract", "mean", "calc")
    } == {"compute"}


def test_conversions_use_exact_factors(math_world):
    assert math_world.call("gallon_to_liter", {"gallon": 2})["result"] == pytest.approx(7.570823568)
    miles = math_world.call("convert_units", {"value": 10, "from_unit": "km", "to_unit": "miles"})[
        "result"
    ]
    assert miles == pytest.approx(6.21371192, rel=1e-8)
    celsius = math_world.call(
        "convert_units", {"value": 212, "from_unit": "fahrenheit", "to_unit": "celsius"}
    )
    assert celsius["result"] == pytest.approx(100)


def test_a_computation_with_no_expression_never_goes_to_the_calculator(math_world):
    profile = math_world._profile.tools["compute_exchange_rate"]
    assert profile.family == "money" and profile.expression_arg is None
    result = math_world.call(
        "compute_exchange_rate", {"base_currency": "USD", "target_currency": "EUR", "value": 100}
    )
    assert result["status"] == "ok" and 0.5 < result["rate"] < 1.5
    assert result["converted_amount"] == pytest.approx(100 * result["rate"], abs=0.01)
    assert math_world._profile.tools["calculate"].family == "calculator"
    assert math_world.call("calculate", {"expression": "12*(3+4)"})["result"] == 84


def test_a_computation_with_an_output_schema_answers_in_that_shape(math_world):
    result = math_world.call("divide", {"a": 1, "b": 4})
    assert result["status"] == "ok" and isinstance(result["quotient"], int | float)
    assert math_world.call("divide", {"a": 1, "b": 0})["error"]["code"] == "rejected"


FILES = [
    _tool("cat", "Display the contents of a file.", file_name=STR),
    _tool(
        "move_file",
        "Move a file.",
        required=["source", "destination"],
        source={"type": "string", "description": "Path of the file to move"},
        destination={"type": "string", "description": "Where the file goes"},
    ),
    _tool("read_text", "Read a text file.", filePath=STR),
    _tool(
        "run_command",
        "Run a program.",
        required=["argv"],
        argv={"type": "array", "items": STR},
        cwd=STR,
    ),
    _tool("wc", "Count lines, words and bytes of a file.", file_name=STR),
    _tool("pwd", "Print the working directory."),
    _tool(
        "grep",
        "Search a file for a pattern.",
        required=["file_name", "pattern"],
        file_name=STR,
        pattern=STR,
    ),
]


@pytest.fixture
def file_world() -> wenv.World:
    return wenv.World(FILES, seed=3)


def test_file_tools_find_the_path_by_role(file_world):
    text = file_world.call("cat", {"file_name": "README.md"})
    assert text["status"] == "ok" and "# app" in text["stdout"]
    assert file_world.call("cat", {"file_name": "nope.md"})["error"]["code"] == "not_found"
    assert "# app" in file_world.call("read_text", {"filePath": "README.md"})["content"]
    moved = file_world.call("move_file", {"source": "README.md", "destination": "docs/README.md"})
    assert moved["status"] == "ok" and moved["destination"] == "docs/README.md"
    assert file_world.call("cat", {"file_name": "README.md"})["error"]["code"] == "not_found"
    assert "# app" in file_world.call("cat", {"file_name": "docs/README.md"})["stdout"]
    again = file_world.call("move_file", {"source": "nope.md", "destination": "x.md"})
    assert again["error"]["code"] == "not_found" and again["error"]["field"] == "source"


def test_shell_tools_find_their_command_by_role(file_world):
    listing = file_world.call("run_command", {"argv": ["ls", "src"], "cwd": "."})
    assert listing["exit_code"] == 0 and listing["stdout"] == "app\n"
    assert file_world.call("pwd", {})["stdout"] == "/workspace\n"
    lines, words, size, name = file_world.call("wc", {"file_name": "pyproject.toml"})[
        "stdout"
    ].split()
    assert name == "pyproject.toml" and int(lines) > 0 and int(size) > int(words)
    assert (
        "name"
        in file_world.call("grep", {"file_name": "pyproject.toml", "pattern": "name"})["stdout"]
    )
    assert {t: p.family for t, p in file_world._profile.tools.items()} == {
        "cat": "shell",
        "move_file": "file",
        "read_text": "file",
        "run_command": "shell",
        "wc": "shell",
        "pwd": "shell",
        "grep": "shell",
    }


def test_a_path_the_user_states_exists_in_the_workspace():
    spec = wenv.load_spec(tools=FILES[:1], system_prompt="You help with files. Never delete files.")
    task = next(
        t
        for t in wenv.draw_tasks(spec, 60, seed=2, fault_rate=0.0)
        if t.cell.tool == "cat" and t.world.state == "exists" and t.world.details_for("cat")
    )
    named = task.world.details_for("cat")["file_name"]
    assert wenv.World(spec, task).call("cat", {"file_name": named})["status"] == "ok"


GIT = [
    _tool(
        "git_diff_unstaged",
        "Shows changes in the working directory that are not yet staged.",
        repo_path=STR,
    ),
    _tool(
        "git_create_branch",
        "Creates a new branch from an optional base branch.",
        required=["repo_path", "branch_name"],
        repo_path=STR,
        branch_name=STR,
        base_branch=STR,
    ),
    _tool(
        "git_branch",
        "List Git branches.",
        required=["repo_path", "branch_type"],
        repo_path=STR,
        branch_type={"type": "string", "enum": ["local", "remote", "all"]},
    ),
]


def test_a_repository_path_is_not_a_file_path_and_branch_tools_find_their_branch():
    world = wenv.World(GIT, seed=3)
    assert world._profile.tools["git_diff_unstaged"].roles.paths == ()
    assert world.call("git_diff_unstaged", {"repo_path": "/home/dana/app"})["status"] == "ok"
    made = world.call(
        "git_create_branch",
        {"repo_path": "/home/dana/app", "branch_name": "fix/login", "base_branch": "main"},
    )
    assert made["status"] == "ok" and made["branch"] == "fix/login" and made["created"] is True
    listed = world.call("git_branch", {"repo_path": "/home/dana/app", "branch_type": "local"})
    assert "fix/login" in {b["name"] for b in listed["items"]}


@pytest.mark.parametrize(
    ("description", "family"),
    [
        ("Get the jobs and status of a GitHub Actions workflow run.", "ci"),
        ("Retrieve detailed information about a specific workflow in the CRM account.", "record"),
    ],
)
def test_a_workflow_is_ci_only_where_its_tool_speaks_of_runs_or_jobs(description, family):
    from whileai_env.world.profile import build_profile

    key = {"workflow_id": {"type": "string"}}
    spec = wenv.load_spec(
        tools=[
            {
                "name": "get_workflow",
                "description": description,
                "parameters": {"type": "object", "properties": key, "required": ["workflow_id"]},
            }
        ]
    )
    assert build_profile(spec).tools["get_workflow"].family == family


def test_a_folder_of_records_named_by_id_is_a_record_not_a_directory():
    """Freshdesk's solution folders (``view_solution_folder(folder_id)``) answered with a code
    repository's listing (``.gitignore``, ``pyproject.toml``); products answered ``{"result": 7}``."""
    ids = {"type": "integer"}
    tools = [
        _tool("list_solution_folders", "List solution folders in a category.", category_id=ids),
        _tool("view_solution_folder", "View a solution folder.", folder_id=ids),
        _tool("view_product", "View a product.", product_id=ids),
        _tool("list_directory", "List the files in a directory.", path=STR),
    ]
    world = wenv.World(wenv.load_spec(tools=tools), seed=3, options={"exists_share": 1.0})
    folders = world.call("list_solution_folders", {"category_id": 12})
    assert ".gitignore" not in str(folders) and folders["status"] == "ok", folders
    folder = world.call("view_solution_folder", {"folder_id": 5})
    assert folder.get("folder_id") == 5, folder
    product = world.call("view_product", {"product_id": 7})
    assert product.get("product_id") == 7 and "result" not in product, product
    assert world.call("list_directory", {"path": "."})["status"] == "ok"
