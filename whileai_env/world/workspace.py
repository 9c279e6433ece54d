"""Results for coding tools: files, shell commands, git and CI, over one small seeded repository.

The repository (a Python project: ``src/app``, ``tests``, ``README.md`` …) is laid out once per
world; the files the task's user names are part of it (unless the world state is ``missing``).
Reads, searches, ``cat`` and ``git diff`` all see the same contents, writes are remembered and
make the tree dirty, a commit cleans it, and test results change with the workspace's version.

Arguments are found by role (:mod:`whileai_env.world.roles`): ``cat(file_name)``,
``move_file(source, destination)``, ``run_command(argv, cwd)`` and a tool named after a program
(``du``, ``wc(file_name)``) work like ``read_file(path)`` and ``run_shell(command)``. A path the
task's user states exists (unless the world state says it is missing), as the file they mean.
"""

from __future__ import annotations

import difflib
import fnmatch
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from whileai_env._util.lexicon import name_tokens
from whileai_env.world.context import Call, error, not_found, ok
from whileai_env.world.store import named_ids
from whileai_env.world.values import COMMIT_MESSAGES, draw, iso, person

_BASE_FILES = (
    "README.md",
    "pyproject.toml",
    ".gitignore",
    "src/app/__init__.py",
    "src/app/models.py",
    "src/app/handlers.py",
    "src/app/utils.py",
    "src/app/config.py",
    "tests/conftest.py",
    "tests/test_models.py",
    "tests/test_handlers.py",
    "scripts/migrate.py",
)
_NAMES = ("order", "user", "invoice", "session", "report", "payment", "customer", "event")
_KNOWN_COMMANDS = frozenset(
    {
        "ls",
        "cat",
        "pwd",
        "echo",
        "git",
        "pytest",
        "python",
        "python3",
        "pip",
        "npm",
        "node",
        "npx",
        "yarn",
        "make",
        "go",
        "cargo",
        "grep",
        "rg",
        "find",
        "head",
        "tail",
        "wc",
        "mkdir",
        "touch",
        "rm",
        "cp",
        "mv",
        "sed",
        "awk",
        "which",
        "env",
        "export",
        "cd",
        "true",
        "false",
        "tox",
        "ruff",
        "mypy",
        "black",
        "uv",
        "poetry",
        "jest",
        "curl",
        "docker",
        "sort",
        "uniq",
        "diff",
        "du",
        "df",
        "rmdir",
        "tree",
        "stat",
    }
)


def _python(path: str, r: Any) -> str:
    noun = r.choice(_NAMES)
    cls = noun.title()
    return (
        f'"""{cls} helpers for the {path.split("/")[-2] if "/" in path else "app"} package."""\n\n'
        "from __future__ import annotations\n\nimport logging\nfrom dataclasses import dataclass\n\n"
        "log = logging.getLogger(__name__)\n\n\n"
        f'@dataclass\nclass {cls}:\n    id: str\n    status: str = "open"\n    total: float = 0.0\n\n\n'
        f"def load_{noun}(store, {noun}_id: str) -> {cls} | None:\n"
        f'    """Return the {noun} with this id, or None."""\n'
        f"    row = store.get({noun}_id)\n    if row is None:\n"
        f'        log.warning("{noun} %s not found", {noun}_id)\n        return None\n'
        f"    return {cls}(**row)\n\n\n"
        f"def total_of(items: list[{cls}]) -> float:\n"
        "    # TODO: use math.fsum once the rounding test is fixed\n"
        "    return sum(i.total for i in items)\n"
    )


def _test(path: str, r: Any) -> str:
    noun = r.choice(_NAMES)
    return (
        f"from app.models import {noun.title()}, total_of\n\n\n"
        f"def test_total_of_empty():\n    assert total_of([]) == 0\n\n\n"
        f'def test_total_of_two():\n    items = [{noun.title()}(id="a", total=1.1), {noun.title()}(id="b", total=2.2)]\n'
        "    assert round(total_of(items), 2) == 3.3\n"
    )


def content_for(path: str, key: str) -> str:
    """The contents of ``path`` in a fresh checkout (by extension, seeded by the path)."""
    r = draw(key, "file", path)
    name = path.rsplit("/", 1)[-1]
    if name.startswith("test_") and name.endswith(".py"):
        return _test(path, r)
    if name.endswith(".py"):
        return _python(path, r)
    if name == "README.md" or name.endswith(".md"):
        return "# app\n\nOrder and invoice service.\n\n## Development\n\n```\npip install -e .[dev]\npytest -q\n```\n"
    if name.endswith(".toml"):
        return '[project]\nname = "app"\nversion = "0.4.2"\ndependencies = ["httpx>=0.27", "pydantic>=2"]\n'
    if name.endswith((".yaml", ".yml")):
        return "service:\n  name: app\n  port: 8080\n  log_level: info\n"
    if name.endswith(".json"):
        return '{\n  "name": "app",\n  "version": "0.4.2",\n  "private": true\n}\n'
    if name.endswith((".ts", ".tsx", ".js")):
        return "export function totalOf(items: { total: number }[]): number {\n  return items.reduce((a, i) => a + i.total, 0);\n}\n"
    if name == ".gitignore":
        return "__pycache__/\n.venv/\n*.egg-info/\n.pytest_cache/\n"
    return f"{name}\n"


@dataclass
class Workspace:
    """The repository state of one episode."""

    key: str
    files: dict[str, str | None] = field(default_factory=dict)
    dirty: dict[str, str] = field(default_factory=dict)
    branch: str = "main"
    branches: set[str] = field(default_factory=lambda: {"main", "develop"})
    commits: list[dict[str, Any]] = field(default_factory=list)
    pushed: int = 0
    version: int = 0
    committed: dict[str, str | None] = field(default_factory=dict)

    def base(self, path: str) -> str:
        """The content of ``path`` at the last commit ("" if it did not exist)."""
        if path in self.committed:
            return self.committed[path] or ""
        return (
            content_for(path, self.key)
            if path in _BASE_FILES or self.dirty.get(path) != "added"
            else ""
        )

    @classmethod
    def build(
        cls,
        key: str,
        now: int,
        *,
        paths: tuple[list[str], list[str]] = ([], []),
        branches: tuple[list[str], list[str]] = ([], []),
        current: str | None = None,
        dirty: bool | None = None,
    ) -> Workspace:
        """Lay out the repository: ``paths``/``branches`` are (present, absent) lists from the
        task's plan, ``current`` the checked-out branch, ``dirty`` forces a dirty (True) or
        clean (False) tree; otherwise 0–2 files are modified, by hash."""
        ws = cls(key=key)
        for path in (*_BASE_FILES, *paths[0]):
            if path not in paths[1]:
                ws.files[_norm(path)] = None
        named = set(branches[0]) | set(branches[1])
        ws.branches = ({"main", "develop"} | set(branches[0])) - set(branches[1])
        if current:
            ws.branch = current
        else:
            # The checked-out branch is one the plan does not name: a checkout of a named branch
            # has something to do, and a branch the plan says is missing is really absent.
            ws.branch = next(b for b in ("main", "develop", "trunk") if b not in named)
        ws.branches.add(ws.branch)
        r = draw(key, "workspace")
        python = sorted(p for p in ws.files if p.endswith(".py"))
        low = 1 if dirty else 0
        for path in r.sample(python, min(len(python), 0 if dirty is False else r.randint(low, 2))):
            ws.files[path] = content_for(path, key).replace(
                "    return ", "    # TODO: handle an empty input\n    return ", 1
            )
            ws.dirty[path] = "modified"
        for i in range(5):
            who = person(r)
            ws.commits.append(
                {
                    "sha": f"{r.getrandbits(160):040x}",
                    "author": who.name,
                    "date": iso(now - (i + 1) * r.randint(3600, 3 * 86400)),
                    "message": r.choice(COMMIT_MESSAGES),
                }
            )
        ws.pushed = len(ws.commits)
        return ws

    def exists(self, path: str) -> bool:
        return _norm(path) in self.files

    def read(self, path: str) -> str:
        p = _norm(path)
        text = self.files.get(p)
        return content_for(p, self.key) if text is None else text

    def write(self, path: str, text: str) -> bool:
        p = _norm(path)
        created = p not in self.files
        self.files[p] = text
        if p not in self.dirty:
            self.dirty[p] = (
                "added"
                if created and self.committed.get(p) is None and p not in _BASE_FILES
                else "modified"
            )
        self.version += 1
        return created

    def is_dir(self, path: str) -> bool:
        p = _norm(path)
        return p in ("", ".") or any(f.startswith(p.rstrip("/") + "/") for f in self.files)


def _norm(path: str) -> str:
    """``./src/app.py``, ``/workspace/src/app.py`` → ``src/app.py``; ``./`` → ``.``."""
    p = path.strip().removeprefix("/workspace").lstrip("/")
    while p.startswith("./"):
        p = p[2:]
    return p.rstrip("/") or "."


def _path_arg(call: Call) -> str | None:
    """The path the call acts on: its first path argument by role, else its primary locator."""
    roles = call.profile.roles
    for arg in (roles.source, *roles.paths, call.profile.primary):
        value = call.args.get(arg) if arg else None
        if isinstance(value, list) and value and isinstance(value[0], str):
            value = value[0]
        if isinstance(value, str) and value.strip():
            return value
    return None


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _int_arg(call: Call, arg: str, default: int) -> int:
    """An integer argument (not a bool), else ``default``."""
    value = call.args.get(arg)
    return value if type(value) is int else default


def _text_arg(call: Call, arg: str | None) -> str | None:
    value = call.args.get(arg) if arg else None
    return value if isinstance(value, str) else None


def _task_missing(call: Call) -> dict[str, Any] | None:
    """``not_found`` for a locator naming what the task says is missing (``git_log(repo_path)``
    on a repository that is not there)."""
    plan = call.store.plan
    if plan.state != "missing":
        return None
    for arg in call.profile.checked:
        for value in named_ids(call.args.get(arg)):
            if value in plan.values:
                return not_found(call.profile.nouns.get(arg, "record"), value, arg)
    return None


def _worded(call: Call, words: set[str]) -> str | None:
    """The first string argument with one of ``words`` in its name (``commit_message``, ``branch_name``)."""
    return next(
        (v for k, v in call.args.items() if isinstance(v, str) and set(name_tokens(k)) & words),
        None,
    )


def _stated(call: Call, ws: Workspace, path: str) -> bool:
    """Whether ``path`` exists: in the tree, or stated by the task's user (then laid out now,
    as the file they mean), unless the world state says what they name is missing."""
    if ws.exists(path):
        return True
    plan = call.store.plan
    if path in plan.stated and plan.state != "missing":
        ws.files[_norm(path)] = None
        return True
    return False


def _op(call: Call, table: dict[str, tuple[str, ...]], default: str) -> str:
    words = name_tokens(call.profile.name)
    for op, verbs in table.items():
        if any(w in verbs for w in words):
            return op
    return default


# -- files ---------------------------------------------------------------------------------

_FILE_OPS = {
    "move": ("move", "mv", "rename"),
    "copy": ("copy", "cp", "duplicate"),
    "search": ("search", "grep", "find", "glob"),
    "list": ("list", "ls", "tree", "browse", "directory", "dir", "folder"),
    "delete": ("delete", "remove", "rm", "unlink"),
    "write": (
        "write",
        "save",
        "create",
        "put",
        "upload",
    ),  # before "edit": create_or_update_file creates
    "edit": ("update", "edit", "patch", "append", "replace", "modify", "insert"),
}


def files(call: Call) -> dict[str, Any]:
    """Read, write, list, search or delete files of the workspace."""
    ws: Workspace = call.workspace
    op = _op(call, _FILE_OPS, "write" if call.profile.is_write else "read")
    path = _path_arg(call)
    if op == "search":
        return _missing_scope(call, ws) or _search(call, ws)
    if op == "list":
        return _list_dir(call, ws, path or ".")
    field = (call.profile.roles.paths or tuple(call.profile.tool.required[:1]) or ("path",))[0]
    if path is None:
        if field in call.profile.properties and field not in call.profile.tool.required:
            return ok(
                call.echo(), changed=False
            )  # the schema lets the path go: a call that names no file touches none
        return error(
            "rejected", f"{field}: required field is missing", field=field, problem="missing"
        )
    if op == "edit" and not _stated(call, ws, path):
        return not_found(
            "file", path, field
        )  # an edit changes a file that is there; it creates none
    if op in ("write", "edit"):
        plan = call.store.plan
        if (
            plan.state == "already_done" and path in plan.values
        ):  # the task's write was already made
            return error(
                "already_done",
                f"{path} already holds this change; {call.profile.name} made no change",
                field=field,
            )
        text = _text_arg(call, call.profile.roles.content)
        if (
            text is None
        ):  # edits given in a shape of their own (a list of replacements) keep the text there
            text = ws.read(path) if op == "edit" else ""
        created = ws.write(path, text)
        return ok(call.echo(), bytes_written=len(text.encode("utf-8")), created=created)
    listed = _listed_paths(call)
    if op == "read" and listed is not None:
        return _read_each(call, ws, *listed)
    if not _stated(call, ws, path):
        return not_found("file", path, field)
    if op in ("move", "copy"):
        return _move(call, ws, path, keep=op == "copy")
    if op == "delete":
        ws.files.pop(_norm(path), None)
        ws.dirty[_norm(path)] = "deleted"
        ws.version += 1
        return ok(call.echo(), deleted=True)
    lines = ws.read(path).splitlines()
    start = _int_arg(call, "start_line", 1)
    end = _int_arg(call, "end_line", len(lines))
    start, end = max(1, start), min(len(lines), end)
    chosen = lines[start - 1 : end] if start <= end else []
    return ok(
        call.echo(),
        content="\n".join(chosen) + ("\n" if chosen else ""),
        start_line=start,
        end_line=max(start - 1, end),
        total_lines=len(lines),
        size_bytes=len(ws.read(path).encode("utf-8")),
    )


#: A description saying one failed read does not stop the others (``read_multiple_files``).
_EACH_ON_ITS_OWN = re.compile(
    r"\b(?:won'?t|will not|do(?:es)?n'?t|do(?:es)? not|never|without)\s+"
    r"(?:stop|abort|halt|interrupt|fail)|\bcontinu\w*\s+(?:on|after|despite|past)\b"
    r"|\bpartial\s+(?:results?|success)\b|\beach\b[^.]{0,60}\b(?:own|separately|independently)\b",
    re.IGNORECASE,
)


def _listed_paths(call: Call) -> tuple[str, list[str]] | None:
    """The path argument holding a list of paths and its paths, when the call gives a list
    (``paths=[...]``); ``None`` for a call naming a single path (or an empty list)."""
    roles = call.profile.roles
    for arg in (roles.source, *roles.paths, call.profile.primary):
        value = call.args.get(arg) if arg else None
        if isinstance(value, list) and arg is not None:
            paths = [v for v in value if isinstance(v, str) and v.strip()]
            return (arg, paths) if paths else None
    return None


def _read_each(call: Call, ws: Workspace, field: str, paths: list[str]) -> dict[str, Any]:
    """A read of several paths checks and answers each one: its content, or its own
    ``not_found``. A missing path fails the whole call unless the description says one failed
    read does not stop the rest; then the others are still read."""
    answers: list[dict[str, Any]] = []
    for path in dict.fromkeys(paths):
        if _stated(call, ws, path):
            answers.append({"path": path, "content": ws.read(path)})
        else:
            answers.append({"path": path, "error": not_found("file", path, field)["error"]})
    failed = [a["path"] for a in answers if "error" in a]
    if failed and not _EACH_ON_ITS_OWN.search(call.profile.tool.description or ""):
        return not_found("file", failed[0], field)
    content = "\n".join(
        f"{a['path']}:\n{a['content']}" if "content" in a else f"{a['path']}: Error - not found"
        for a in answers
    )
    return ok(call.echo(), files=answers, content=content, count=len(answers), failed=len(failed))


def _move(call: Call, ws: Workspace, source: str, *, keep: bool) -> dict[str, Any]:
    """Move (or copy) ``source`` to the destination argument; the destination must be new."""
    target_arg = call.profile.roles.destination
    target = _text_arg(call, target_arg)
    if target is None:
        field = target_arg or "destination"
        return error(
            "rejected", f"{field}: required field is missing", field=field, problem="missing"
        )
    if ws.is_dir(target) and not ws.exists(target):
        target = f"{_norm(target)}/{_norm(source).rsplit('/', 1)[-1]}"
    if ws.exists(target):
        return error(
            "already_exists", f"{target} already exists", field=target_arg or "destination"
        )
    ws.write(target, ws.read(source))
    if not keep:
        ws.files.pop(_norm(source), None)
        ws.dirty[_norm(source)] = "deleted"
    return ok(call.echo(), source=_norm(source), destination=_norm(target), copied=keep)


def _list_dir(call: Call, ws: Workspace, path: str) -> dict[str, Any]:
    if ws.exists(path) and not ws.is_dir(path):
        name = _norm(path)
        item = {"name": name, "type": "file", "size_bytes": len(ws.read(name).encode())}
        return ok(call.echo(), items=[item], count=1)
    if not ws.is_dir(path):
        return not_found("directory", path, "path")
    base = _norm(path)
    prefix = "" if base in ("", ".") else base.rstrip("/") + "/"
    recursive = call.args.get("recursive") is True
    seen: dict[str, str] = {}
    for f in sorted(ws.files):
        if not f.startswith(prefix):
            continue
        rest = f[len(prefix) :]
        if recursive or "/" not in rest:
            seen[rest] = "file"
        else:
            seen.setdefault(rest.split("/", 1)[0], "directory")
    items = [
        {
            "name": n,
            "type": t,
            **({"size_bytes": len(ws.read(prefix + n).encode())} if t == "file" else {}),
        }
        for n, t in seen.items()
    ]
    return ok(call.echo(), items=items, count=len(items))


def _missing_scope(call: Call, ws: Workspace) -> dict[str, Any] | None:
    """``not_found`` for the first path a search is told to look within that is not there: a
    search in a folder that does not exist finds no folder, not zero matches."""
    for arg in call.profile.roles.paths:
        for path in named_ids(call.args.get(arg)):
            if not (ws.is_dir(path) or _stated(call, ws, path)):
                return not_found(call.profile.nouns.get(arg, "directory"), path, arg)
    return None


def _search(
    call: Call, ws: Workspace, query: str | None = None, within: list[str] | None = None
) -> dict[str, Any]:
    roles = call.profile.roles
    field = roles.query or "query"
    query = query if query is not None else _text_arg(call, roles.query) or ""
    if _glob_style(call, field):
        return _find_names(call, ws, query)
    try:
        pattern = re.compile(query)
    except re.error as exc:
        return error(
            "rejected",
            f"{field}: invalid regular expression: {exc}",
            field=field,
            problem="invalid",
        )
    glob = next(
        (v for k, v in call.args.items() if "glob" in name_tokens(k) and isinstance(v, str)), None
    )
    if within is None:
        named = [call.args.get(a) for a in roles.paths]
        within = [
            _norm(p)
            for v in named
            for p in (v if isinstance(v, list) else [v])
            if isinstance(p, str)
        ]
        within = [w for w in within if w != "."]
    suffix = glob.lstrip("*") if glob and glob.startswith("*") else None
    cap = next(
        (
            v
            for k, v in call.args.items()
            if type(v) is int and set(name_tokens(k)) & {"max", "limit"}
        ),
        100,
    )
    matches: list[dict[str, Any]] = []
    for path in sorted(ws.files):
        if (suffix and not path.endswith(suffix)) or (
            within and not any(path.startswith(w) for w in within)
        ):
            continue
        for number, line in enumerate(ws.read(path).splitlines(), 1):
            if len(matches) < cap and pattern.search(line):
                matches.append({"path": path, "line": number, "text": line.strip()[:200]})
    return ok(items=matches, count=len(matches))


def _glob_style(call: Call, field: str) -> bool:
    """Whether the tool's pattern is a glob over names (its description or the argument's says so)."""
    schema = call.profile.properties.get(field)
    described = schema.get("description", "") if isinstance(schema, dict) else ""
    return "glob" in f"{call.profile.tool.description} {described}".lower()


def _find_names(call: Call, ws: Workspace, pattern: str) -> dict[str, Any]:
    """Files and folders whose path or name matches a glob (``*.py``), like a find."""
    found = sorted(
        p
        for p in ws.files
        if fnmatch.fnmatch(p, pattern) or fnmatch.fnmatch(p.rsplit("/", 1)[-1], pattern)
    )
    return ok(call.echo(), items=[{"path": p} for p in found], count=len(found))


# -- shell ---------------------------------------------------------------------------------


def _test_summary(call: Call, scope: str) -> tuple[dict[str, Any], str]:
    ws: Workspace = call.workspace
    r = draw(call.key, "tests", scope, str(ws.version))
    total = r.randint(6, 40) if scope else r.randint(40, 240)
    failed = r.randint(1, 3) if r.random() < call.options.failure_share else 0
    skipped = r.choice((0, 0, 1, 2))
    tests = sorted(f for f in ws.files if "/test_" in f or f.startswith("test_"))
    failures = [
        {
            "test": f"{r.choice(tests or ['tests/test_app.py'])}::test_{r.choice(_NAMES)}_{i}",
            "message": r.choice(
                (
                    "AssertionError: assert 3.3000000000000003 == 3.3",
                    "KeyError: 'status'",
                    "TypeError: 'NoneType' object is not subscriptable",
                )
            ),
        }
        for i in range(failed)
    ]
    duration = round(r.uniform(0.4, 40.0), 2)
    counts = {
        "passed": total - failed - skipped,
        "failed": failed,
        "skipped": skipped,
        "duration_s": duration,
    }
    parts = (
        [f"{counts['passed']} passed"]
        + ([f"{failed} failed"] if failed else [])
        + ([f"{skipped} skipped"] if skipped else [])
    )
    text = "".join(f"FAILED {f['test']} - {f['message']}\n" for f in failures)
    text += f"{'=' * 10} {', '.join(parts)} in {duration}s {'=' * 10}\n"
    return {**counts, "failures": failures}, text


def _command_words(call: Call) -> list[str] | None:
    """The command line as words: the command argument split, the argv argument, or (for a tool
    named after a program, ``wc(file_name)``) the program, its pattern, then its paths."""
    p = call.profile
    if p.program is not None:
        roles = p.roles
        pattern = [v for v in (_text_arg(call, roles.query),) if v]
        paths = [
            str(v) for a in roles.paths for v in _as_list(call.args.get(a)) if isinstance(v, str)
        ]
        text = [v for v in (_text_arg(call, roles.content),) if v and p.program == "echo"]
        return [p.program, *text, *pattern, *paths]
    value = call.args.get(p.command_arg) if p.command_arg else None
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return list(value)
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        return shlex.split(value)
    except ValueError:
        return value.split()


def shell(call: Call) -> dict[str, Any]:
    """Run a shell command in the workspace: plausible stdout, stderr and exit code."""
    ws: Workspace = call.workspace
    arg = call.profile.command_arg or "command"
    words = _command_words(call)
    if not words:
        return error("rejected", f"{arg}: give a command to run", field=arg, problem="missing")
    missing = _missing_operand(call, ws)
    if missing is not None:
        return missing
    program = words[0]
    rest = words[1:]
    r = call.rng("shell")
    out, err, code = "", "", 0
    if program not in _KNOWN_COMMANDS:
        err, code = f"bash: {program}: command not found\n", 127
    elif program == "pwd":
        out = "/workspace\n"
    elif program == "echo" and call.profile.program == "echo" and len(rest) > 1:
        ws.write(rest[-1], " ".join(rest[:-1]) + "\n")
    elif program == "echo":
        out = " ".join(rest) + "\n"
    elif program in _FILE_PROGRAMS:
        out, err, code = _file_program(
            call, ws, program, [w for w in rest if not w.startswith("-")]
        )
    elif program == "ls":
        listing = _list_dir(call, ws, next((w for w in rest if not w.startswith("-")), "."))
        if listing["status"] == "ok":
            out = "".join(i["name"] + "\n" for i in listing["items"])
        else:
            err, code = f"ls: cannot access '{rest[-1]}': No such file or directory\n", 2
    elif program in ("cat", "head", "tail"):
        target = next((w for w in rest if not w.startswith("-")), "")
        if ws.exists(target):
            lines = ws.read(target).splitlines(keepends=True)
            out = "".join(
                lines if program == "cat" else lines[:10] if program == "head" else lines[-10:]
            )
        else:
            err, code = f"{program}: {target}: No such file or directory\n", 1
    elif program == "git":
        out, err, code = _git_text(call, ws, rest)
    elif program in ("pytest", "tox", "jest") or (
        program in ("npm", "yarn", "make", "go", "cargo") and "test" in rest
    ):
        summary, out = _test_summary(call, " ".join(w for w in rest if not w.startswith("-")))
        code = 1 if summary["failed"] else 0
    elif program in ("touch", "mkdir"):
        for w in rest:
            if not w.startswith("-") and program == "touch":
                ws.write(w, ws.read(w) if ws.exists(w) else "")
    elif program == "rm":
        for w in rest:
            if not w.startswith("-"):
                ws.files.pop(_norm(w), None)
                ws.dirty[_norm(w)] = "deleted"
    elif program in ("python", "python3", "node") and r.random() < call.options.failure_share:
        err, code = (
            "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nModuleNotFoundError: No module named 'app.cli'\n",
            1,
        )
    elif program in ("grep", "rg") and rest:
        words = [w for w in rest if not w.startswith("-")]
        pattern = words[0] if words else ""
        found = _search(call, ws, re.escape(pattern), [_norm(w) for w in words[1:]])
        out = "".join(f"{m['path']}:{m['line']}:{m['text']}\n" for m in found.get("items", []))
        code = 0 if out else 1
    elif program == "false":
        code = 1
    return ok(exit_code=code, stdout=out, stderr=err, duration_ms=r.randint(8, 2400))


_MAKES_PATHS = frozenset({"touch", "mkdir", "echo", "cd"})


def _missing_operand(call: Call, ws: Workspace) -> dict[str, Any] | None:
    """``not_found`` for a tool named after a program (``cat(file_name)``) whose path operand does
    not exist; a program that makes paths (touch, mkdir) and a copy's destination are exempt."""
    p = call.profile
    if p.program is None or p.program in _MAKES_PATHS:
        return None
    for arg in p.roles.paths:
        value = call.args.get(arg)
        if arg == p.roles.destination or not isinstance(value, str) or not value.strip():
            continue
        if not (_stated(call, ws, value) or ws.is_dir(value)):
            return not_found("file", value, arg)
    return None


_FILE_PROGRAMS = frozenset(
    {"wc", "du", "df", "cp", "mv", "rmdir", "sort", "diff", "cd", "stat", "tree", "uniq"}
)


def _file_program(
    call: Call, ws: Workspace, program: str, paths: list[str]
) -> tuple[str, str, int]:
    """``wc``, ``du``, ``cp``, ``mv``, ``sort``, ``diff`` … over the workspace's files."""
    missing = next(
        (
            p
            for p in paths[: 1 if program in ("cp", "mv") else None]
            if not _stated(call, ws, p) and not ws.is_dir(p)
        ),
        None,
    )
    if missing is not None:
        return "", f"{program}: {missing}: No such file or directory\n", 1
    if program in ("cp", "mv"):
        if len(paths) < 2:
            return "", f"{program}: missing destination file operand\n", 1
        ws.write(paths[1], ws.read(paths[0]))
        if program == "mv":
            ws.files.pop(_norm(paths[0]), None)
            ws.dirty[_norm(paths[0])] = "deleted"
        return "", "", 0
    if program == "rmdir":
        for path in paths:
            ws.files = {
                f: c for f, c in ws.files.items() if not f.startswith(_norm(path).rstrip("/") + "/")
            }
        return "", "", 0
    if program == "wc":
        return (
            "".join(
                f"{len(t.splitlines())} {len(t.split())} {len(t.encode())} {p}\n"
                for p in paths
                for t in [ws.read(p)]
            ),
            "",
            0,
        )
    if program in ("sort", "uniq"):
        lines = [line for p in paths for line in ws.read(p).splitlines()]
        lines = sorted(lines) if program == "sort" else list(dict.fromkeys(lines))
        return "".join(line + "\n" for line in lines), "", 0
    if program == "diff":
        if len(paths) < 2:
            return "", "diff: missing operand\n", 2
        a, b = (
            ws.read(paths[0]).splitlines(keepends=True),
            ws.read(paths[1]).splitlines(keepends=True),
        )
        text = "".join(difflib.unified_diff(a, b, paths[0], paths[1]))
        return text, "", 1 if text else 0
    if program in ("du", "df", "stat", "tree"):
        scope = [
            f for f in sorted(ws.files) if not paths or any(f.startswith(_norm(p)) for p in paths)
        ]
        total = sum(len(ws.read(f).encode()) for f in scope)
        return f"{max(1, total // 1024)}K\t{paths[0] if paths else '.'}\n", "", 0
    return "", "", 0  # cd: the workspace has one working directory


# -- git -----------------------------------------------------------------------------------

_GIT_OPS = {
    "status": ("status",),
    "diff": ("diff",),
    "commit": ("commit",),
    "checkout": ("checkout", "switch", "branch"),
    "push": ("push",),
    "pull": ("pull", "fetch"),
    "log": ("log", "history"),
}


def _diff_text(ws: Workspace, only: str | None) -> tuple[str, int, int]:
    """A unified diff of the working tree against the last commit, with its line counts."""
    chunks, plus, minus = [], 0, 0
    for path, change in sorted(ws.dirty.items()):
        if only and not path.startswith(_norm(only)):
            continue
        before = ws.base(path)
        after = "" if change == "deleted" else ws.read(path)
        lines = list(
            difflib.unified_diff(
                before.splitlines(keepends=True),
                after.splitlines(keepends=True),
                f"a/{path}",
                f"b/{path}",
            )
        )
        plus += sum(1 for x in lines if x.startswith("+") and not x.startswith("+++"))
        minus += sum(1 for x in lines if x.startswith("-") and not x.startswith("---"))
        chunks.append(
            f"diff --git a/{path} b/{path}\n"
            + "".join(x if x.endswith("\n") else x + "\n" for x in lines)
        )
    return "".join(chunks), plus, minus


def git(call: Call) -> dict[str, Any]:
    """``git status``/``diff``/``commit``/``checkout``/``push``/``pull``/``log`` on the workspace."""
    ws: Workspace = call.workspace
    missing = _task_missing(call)
    if missing is not None:
        return missing
    op = _op(call, _GIT_OPS, "status")
    r = call.rng("git")
    if op == "status":
        unstaged = sorted(p for p, c in ws.dirty.items() if c != "added")
        untracked = sorted(p for p, c in ws.dirty.items() if c == "added")
        return ok(
            branch=ws.branch,
            ahead=len(ws.commits) - ws.pushed,
            staged=[],
            unstaged=unstaged,
            untracked=untracked,
            clean=not ws.dirty,
        )
    if op == "diff":
        only = next(
            (call.args[a] for a in call.profile.roles.paths if isinstance(call.args.get(a), str)),
            None,
        )
        if only and not (ws.exists(only) or ws.is_dir(only) or _norm(only) in ws.dirty):
            return error(
                "not_found",
                f"ambiguous argument '{only}': unknown revision or path not in the working tree",
                field="path",
            )
        if call.args.get("staged") is True:
            return ok(call.echo(), diff="", files_changed=0, insertions=0, deletions=0)
        text, plus, minus = _diff_text(ws, only)
        changed = sum(1 for p in ws.dirty if not only or p.startswith(_norm(only)))
        return ok(call.echo(), diff=text, files_changed=changed, insertions=plus, deletions=minus)
    if op == "commit":
        if not ws.dirty:
            return error("already_done", "nothing to commit, working tree clean")
        sha = f"{r.getrandbits(160):040x}"
        message = _worded(call, {"message", "msg", "summary", "description"}) or ""
        ws.commits.insert(
            0, {"sha": sha, "author": "agent", "date": iso(call.now), "message": message}
        )
        changed = len(ws.dirty)
        for path, change in ws.dirty.items():
            ws.committed[path] = None if change == "deleted" else ws.read(path)
        ws.dirty.clear()
        return ok(sha=sha, short_sha=sha[:7], branch=ws.branch, files_changed=changed)
    if op == "checkout" and not call.profile.is_write:  # git_branch: list the branches
        items = [{"name": b, "current": b == ws.branch} for b in sorted(ws.branches)]
        return ok(call.echo(), items=items, count=len(items))
    if op == "checkout":
        return _checkout(call, ws)
    if op == "push":
        pushed = len(ws.commits) - ws.pushed
        ws.pushed = len(ws.commits)
        remote = call.args.get("remote") if isinstance(call.args.get("remote"), str) else "origin"
        return ok(
            remote=remote,
            branch=ws.branch,
            pushed_commits=pushed,
            url=f"https://git.example.internal/app/tree/{ws.branch}",
        )
    if op == "pull":
        return ok(branch=ws.branch, updated=False, commits=0)
    items = [dict(c, sha=c["sha"][:7]) for c in ws.commits[:10]]
    return ok(items=items, count=len(items))


def _branch_arg(call: Call) -> tuple[str, str]:
    """(argument, branch) the call switches to or creates: a branch-named argument that is not
    the base it starts from (``branch_name``, not ``base_branch``)."""
    for words in ({"branch"}, {"name", "ref", "target", "revision"}):
        for arg, value in call.args.items():
            tokens = set(name_tokens(arg))
            if (
                isinstance(value, str)
                and tokens & words
                and not tokens & {"base", "source", "from", "type", "start"}
            ):
                return arg, value
    return "branch", ""


def _checkout(call: Call, ws: Workspace) -> dict[str, Any]:
    field, branch = _branch_arg(call)
    create = call.profile.kind == "create" or any(
        call.args.get(k) is True for k in ("create", "new", "create_branch", "b")
    )
    exists = branch in ws.branches
    if branch == ws.branch and not create:
        return error("already_done", f"already on '{branch}'", field=field)
    if create and exists:
        return error("already_done", f"a branch named '{branch}' already exists", field=field)
    if not create and not exists:
        return error(
            "not_found", f"pathspec '{branch}' did not match any branch known to git", field=field
        )
    ws.branches.add(branch)
    if not (
        create and call.profile.kind == "create"
    ):  # git_create_branch creates, checkout switches
        ws.branch = branch
    return ok(call.echo(), branch=branch, created=create)


def _git_text(call: Call, ws: Workspace, rest: list[str]) -> tuple[str, str, int]:
    sub = rest[0] if rest else ""
    if sub == "status":
        lines = [f"On branch {ws.branch}"] + [f"\t{c}:   {p}" for p, c in sorted(ws.dirty.items())]
        if not ws.dirty:
            lines.append("nothing to commit, working tree clean")
        return "\n".join(lines) + "\n", "", 0
    if sub == "diff":
        return _diff_text(ws, None)[0], "", 0
    if sub == "log":
        return "".join(f"{c['sha'][:7]} {c['message']}\n" for c in ws.commits[:10]), "", 0
    if sub == "branch":
        return (
            "".join(("* " if b == ws.branch else "  ") + b + "\n" for b in sorted(ws.branches)),
            "",
            0,
        )
    return "", "", 0


# -- CI ------------------------------------------------------------------------------------


def ci(call: Call) -> dict[str, Any]:
    """Test runs (passed/failed/skipped counts, failures) and pipeline states."""
    ws: Workspace = call.workspace
    words = set(name_tokens(call.profile.name))
    scope = _path_arg(call) or ""
    if words & {"test", "tests", "lint", "coverage"}:
        if scope and not (ws.exists(scope) or ws.is_dir(scope)):
            return not_found("test path", scope, "path")
        summary, text = _test_summary(call, scope + "|" + str(call.args.get("keyword", "")))
        return ok(call.echo(), **summary, output=text)
    r = draw(call.key, "pipeline", ws.branch, str(ws.version))
    state = (
        "failed"
        if r.random() < call.options.failure_share
        else r.choice(("passed", "passed", "running"))
    )
    jobs = [
        {"name": n, "state": state if n == "test" else "passed", "duration_s": r.randint(20, 600)}
        for n in ("lint", "test", "build")
    ]
    return ok(
        call.echo(),
        pipeline_id=f"pl_{r.randrange(10**6, 10**7)}",
        branch=ws.branch,
        state=state,
        jobs=jobs,
        url=f"https://ci.example.internal/app/pipelines/{r.randrange(1000, 9999)}",
    )


BUILDERS = {"file": files, "shell": shell, "git": git, "ci": ci}
