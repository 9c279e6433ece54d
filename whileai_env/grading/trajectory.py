"""A row read once for grading: its steps, who said what before each call, and lazy haystacks.

The conduct gate and the outcome checklist both need the same facts (which text the user had
given before a call, which results came earlier, what a tool's kind is), so a row is parsed
into a :class:`Trajectory` once per grade. A value is looked for in the cheap places first (user
turns, system prompt); tool results are read from their tool messages (the JSON the agent saw)
and serialised only for rows without them, each at most once.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from whileai_env._util.lexicon import ACTION_VERBS, QUALIFIERS, name_tokens, singular, verb_kind
from whileai_env._util.reading import READ_CHARS, read_part
from whileai_env.spec.arguments import argument_role, entity_noun
from whileai_env.spec.kinds import WRITE_KINDS, classify_tool
from whileai_env.world.fault_registry import degraded_kinds, gateway_kinds


class Step:
    """One ledger entry, with the facts the checks read precomputed.

    ``index`` is the ledger's call index, ``at`` the position in :attr:`Trajectory.steps`, ``pos``
    the ordinal of the assistant message that made the call (``None`` when unknown) and ``cut`` how
    much of the user text had been said before it.
    """

    __slots__ = (
        "args",
        "at",
        "call_id",
        "cut",
        "error",
        "failed",
        "fault",
        "kind",
        "pos",
        "raw",
        "result",
        "succeeded",
        "tool",
    )

    def __init__(self, raw: dict[str, Any], position: int) -> None:
        get = raw.get
        self.raw = raw
        self.at = position
        tool = get("tool")
        self.tool = tool if type(tool) is str else ""
        args = get("arguments")
        self.args = args if type(args) is dict or isinstance(args, dict) else {}
        result = get("result")
        result = self.result = result if type(result) is dict or isinstance(result, dict) else {}
        error = get("error")
        if error is None and result.get("status") == "error":
            detail = result.get("error")
            error = detail.get("code") if isinstance(detail, dict) else "error"
        self.error = error
        fault = self.fault = get("fault")
        self.kind = get("kind", "?")
        self.call_id = get("call_id")
        if error is not None:
            failed = True
        elif fault is None:
            failed = get("ok") is False
        else:
            failed = fault not in degraded_kinds()
        self.failed = failed
        self.succeeded = not failed
        self.pos: int | None = None
        self.cut = 0

    @property
    def index(self) -> int:
        """The ledger's call index."""
        return self.raw.get("index", self.at)

    @property
    def mode(self) -> str | None:
        """The fired fault's mode (``transient`` or ``persistent``) as the ledger recorded it."""
        return self.raw.get("fault_mode")

    @property
    def got_through(self) -> bool:
        """The call passed the fault schedule (it may still be ``not_found`` or ``already_done``)."""
        return (
            self.fault is None or self.fault in degraded_kinds()
        ) and self.error not in gateway_kinds()

    def same_call(self, other: Step) -> bool:
        return self.tool == other.tool and self.args == other.args


def scalar_text(value: Any) -> str | None:
    """A locator value as comparable text (lowercase, no leading ``#``), or ``None`` for non-scalars.

    >>> scalar_text("#4412"), scalar_text(4412.0), scalar_text(True)
    ('4412', '4412', None)
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str | int | float):
        text = str(value).strip().lstrip("#").lower()
        return text or None
    return None


def message_text(content: Any) -> str:
    """The text of an OpenAI message ``content`` (a string, ``None`` or a list of parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            p.get("text", "")
            for p in content
            if isinstance(p, Mapping) and isinstance(p.get("text"), str)
        )
    return "" if content is None else str(content)


def declared_tools(tools: Any) -> tuple[frozenset[str] | None, dict[str, str]]:
    """Tool names and kinds from a list of names, a ``Spec``, OpenAI/bare tool dicts or a name→kind map."""
    if tools is None:
        return None, {}
    if type(tools) is list and set(map(type, tools)) <= {str}:
        return frozenset(tools), {}
    spec_tools = getattr(tools, "tools", None)
    if spec_tools is not None:
        return frozenset(t.name for t in spec_tools), {t.name: t.kind for t in spec_tools}
    if isinstance(tools, Mapping):
        return frozenset(str(k) for k in tools), {
            str(k): str(v) for k, v in tools.items() if isinstance(v, str)
        }
    names: set[str] = set()
    kinds: dict[str, str] = {}
    for item in tools if isinstance(tools, Iterable) else ():
        if isinstance(item, str):
            names.add(item)
        elif isinstance(item, Mapping):
            function = item.get("function")
            inner: Mapping[str, Any] = function if isinstance(function, Mapping) else item
            name = inner.get("name")
            if isinstance(name, str):
                names.add(name)
                kind = item.get("kind") or inner.get("kind")
                if isinstance(kind, str):
                    kinds[name] = kind
        elif isinstance(getattr(item, "name", None), str):
            names.add(item.name)
            if isinstance(getattr(item, "kind", None), str):
                kinds[item.name] = item.kind
    return frozenset(names), kinds


_CODE_CHAR = re.compile(r"[\d_@#]")
#: A whitespace-separated word holding a code character: it starts only where a word starts
#: (the lookbehind) and its parts are possessive, so a long word without one costs one scan.
_CODE_WORD = re.compile(r"(?<!\S)[^\s\d_@#]*+[\d_@#]\S*+")
_EDGE = ".,;:!?()[]{}<>\"'*`"
#: Lookups a trajectory answers by substring search alone before it builds its set of seen words.
_SUBSTRING_LOOKUPS = 16


@lru_cache(maxsize=1024)
def code_words(text: str) -> tuple[str, ...]:
    """The whitespace-separated words of ``text`` that hold a digit, ``_``, ``@`` or ``#``, with
    surrounding punctuation stripped: the candidates for identifiers and codes.

    >>> code_words("Order #4412 (refund rf_20931) is on its way.")
    ('#4412', 'rf_20931')
    """
    if not _CODE_CHAR.search(text):
        return ()
    # the words holding a code character, found by the regex engine rather than a loop over
    # every word (a 194 KB reply of 31k words cost 25 ms); _EDGE holds no code character, so
    # stripping keeps what made the word a candidate
    return tuple(word.strip(_EDGE) for word in _CODE_WORD.findall(text))


@lru_cache(maxsize=4096)
def tool_kind(name: str) -> str:
    """:func:`~whileai_env.spec.kinds.classify_tool` by name alone, cached (it runs on every grade)."""
    return classify_tool(name)


def _tool_locators(value: Any) -> dict[str, frozenset[str]] | None:
    """``row["tool_locators"]`` as sets of names, or ``None`` when the row has no such map."""
    if not isinstance(value, dict):
        return None
    return {
        str(tool): frozenset(str(n) for n in names)
        for tool, names in value.items()
        if isinstance(names, list | tuple)
    }


@lru_cache(maxsize=4096)
def named_noun(tool: str, arg: str) -> str:
    """What locator ``arg`` of ``tool`` names by the names alone: the argument's noun, or the
    tool's thing for an argument that names none (a bare ``id``).

    >>> named_noun("get-product-by-id", "productId"), named_noun("update-product", "id")
    ('product', 'product')
    """
    noun = entity_noun(arg)
    if noun != "record":
        return " ".join(singular(w) for w in noun.split())
    words = [
        w
        for w in name_tokens(tool)
        if w not in QUALIFIERS
        and w not in ACTION_VERBS
        and verb_kind(w) is None
        and w not in ("id", "ids", "by", "of", "for", "to", "from", "in", "on", "with", "a", "the")
    ]
    return singular(words[-1]) if words else noun


def _locator_nouns(value: Any) -> dict[str, dict[str, str]]:
    """``row["locator_nouns"]`` as ``{tool: {argument: noun}}`` (empty when absent)."""
    if not isinstance(value, dict):
        return {}
    return {
        str(tool): {str(a): n for a, n in nouns.items() if isinstance(n, str)}
        for tool, nouns in value.items()
        if isinstance(nouns, dict)
    }


def _tool_values(value: Any) -> dict[tuple[str, str], frozenset[str]]:
    """A row's ``tool_values`` as ``{(tool, argument): lowercase values}`` (empty when absent)."""
    if not isinstance(value, dict):
        return {}
    return {
        (str(tool), str(arg)): frozenset(str(v).lower() for v in values)
        for tool, args in value.items()
        if isinstance(args, dict)
        for arg, values in args.items()
        if isinstance(values, list)
    }


def declared_locators(tools: Any) -> dict[str, frozenset[str]] | None:
    """Each declared tool's locator arguments, from the schemas of a ``Spec`` or of OpenAI (or
    bare) tool dicts; ``None`` when ``tools`` carries no schema (names, a name→kind map)."""
    items = getattr(tools, "tools", tools)
    if not isinstance(items, list | tuple):
        return None
    out: dict[str, frozenset[str]] = {}
    for item in items:
        name, props = _name_and_properties(item)
        if name is not None:
            out[name] = frozenset(
                n
                for n, s in props.items()
                if argument_role(n, s if isinstance(s, Mapping) else None) == "locator"
            )
    return out or None


def _name_and_properties(item: Any) -> tuple[str | None, Mapping[str, Any]]:
    """A tool's name and argument schemas, from a ``Tool`` or an OpenAI/bare/MCP tool dict."""
    if isinstance(getattr(item, "name", None), str):
        return item.name, getattr(item, "properties", {}) or {}
    if not isinstance(item, Mapping):
        return None, {}
    function = item.get("function")
    inner: Mapping[str, Any] = function if isinstance(function, Mapping) else item
    schema = inner.get("parameters") or inner.get("inputSchema") or {}
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    name = inner.get("name")
    return (name if isinstance(name, str) else None), (props if isinstance(props, Mapping) else {})


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


class Trajectory:
    """The parsed row. Built by the checklist; read-only for the checks.

    Nested structures are read when they are ``dict`` s (JSON objects); anything else counts as
    absent.
    """

    __slots__ = (
        "_args_text",
        "_everything",
        "_kind_cache",
        "_lookups",
        "_pieces",
        "_repeats",
        "_results",
        "_seen",
        "_tool_texts",
        "assistant",
        "by_tool",
        "cuts",
        "declared",
        "dims",
        "fault_plan",
        "final",
        "first_write",
        "kinds",
        "locator_nouns",
        "opener",
        "over_long",
        "privileged",
        "row",
        "steps",
        "system",
        "system_prompt",
        "tool_locators",
        "tool_values",
        "user_text",
        "world",
    )

    def __init__(self, row: Mapping[str, Any], declared: Any = None) -> None:
        get = row.get
        self.row = row
        final = get("final_text")
        final = final if type(final) is str else ""
        #: The longest reply past :data:`~whileai_env._util.reading.READ_CHARS` (0 when none):
        #: the checks read each reply up to that many characters.
        self.over_long = len(final) if len(final) > READ_CHARS else 0
        self.final = read_part(final)
        self.dims = _dict(get("scenario_dimensions"))
        self.world = _dict(get("world"))
        self.fault_plan = _dict(get("fault_plan"))
        self.privileged = _dict(get("privileged"))
        self.declared, kinds = declared_tools(get("tools") if declared is None else declared)
        row_kinds = get("tool_kinds")
        if isinstance(row_kinds, dict):
            kinds = {**kinds, **row_kinds}
        self.kinds = kinds
        #: Each tool's locator arguments read with their schemas (an ``event`` of ``APPROVE`` or
        #: ``COMMENT`` is a choice, not an entity): the row's map, else the declared tools' schemas,
        #: else ``None``.
        self.tool_locators = _tool_locators(get("tool_locators")) or declared_locators(declared)
        #: Per tool, what each locator names (``update-product``'s ``id``: a product): the row's
        #: map where it has one (the world's own reading), else read from the names.
        self.locator_nouns = _locator_nouns(get("locator_nouns"))
        #: Per tool and locator argument, the literal values its schema offers (``'primary'``):
        #: passing one is grounded in the tool's documentation.
        self.tool_values = _tool_values(get("tool_values"))
        self._kind_cache: dict[str, str | None] = {}
        read = _read_messages(get("messages") or ())
        system, originals, users, cuts, assistant = (
            read.system,
            read.originals,
            read.users,
            read.cuts,
            read.assistant,
        )
        prompt, system_prompt = get("prompt"), get("system_prompt")
        if not users and isinstance(prompt, str):
            users.append(prompt.lower())
            originals.append(prompt)
        if not system and isinstance(system_prompt, str):
            system.append(system_prompt)
        if not assistant and self.final and not self.final.isspace():
            assistant.append((len(cuts), self.final))
        self.over_long = max(self.over_long, read.over_long)
        self.assistant = assistant
        #: For each assistant turn, how much of :attr:`user_text` had been said before it.
        self.cuts = cuts
        #: The system prompt as written (clauses are split from it) and lowercase (for lookups).
        self.system_prompt = "\n".join(system)
        self.system = self.system_prompt.lower()
        #: The user's first turn as written: what the ask is about.
        self.opener = originals[0] if originals else ""
        self.user_text = "\n".join(users)
        everything = len(self.user_text) + 1
        self.steps, self.by_tool = _read_steps(get("steps") or (), read.call_pos, cuts, everything)
        steps = self.steps
        first_write = None
        for step in steps:
            if step.kind == "?":
                step.kind = self.kind_of(step.tool)
            if first_write is None and step.kind in WRITE_KINDS:
                first_write = step
        self.first_write = first_write
        self._tool_texts = read.tool_texts
        self._results: list[str | None] = [None] * len(steps)
        self._everything: str | None = None
        self._args_text: str | None = None
        self._repeats: list[tuple[Step, Sequence[Step]]] | None = None
        self._seen: dict[str, bool] = {}
        self._pieces: frozenset[str] | None = None
        self._lookups = 0

    def kind_of(self, tool: str) -> str | None:
        """The tool's kind: from the ledger, the row's ``tool_kinds``, the declared spec, or its name."""
        cache = self._kind_cache
        if tool in cache:
            return cache[tool]
        kind: str | None = "?"
        for step in self.by_tool.get(tool, ()):
            if step.kind != "?":
                kind = step.kind
                break
        if kind == "?":
            if tool in self.kinds:
                kind = self.kinds[tool]
            elif self.declared is not None and tool not in self.declared:
                kind = None
            else:
                kind = tool_kind(tool)
        cache[tool] = kind
        return kind

    def noun_of(self, tool: str, arg: str) -> str:
        """What ``tool``'s locator ``arg`` names: the row's ``locator_nouns``, else the argument's
        own noun (``productId``: product), else for a bare ``id`` the tool's (``update-product``)."""
        found = self.locator_nouns.get(tool, {}).get(arg)
        return found if found is not None else named_noun(tool, arg)

    def things_of(self, tool: str) -> frozenset[str]:
        """What ``tool``'s locators name (:meth:`noun_of` of each)."""
        names = (self.tool_locators or {}).get(tool, frozenset())
        return frozenset(self.noun_of(tool, a) for a in names)

    @staticmethod
    def is_write(kind: str | None) -> bool:
        return kind in WRITE_KINDS

    def result_text(self, i: int) -> str:
        """Step ``i``'s result as the agent saw it (its tool message, else the result serialised),
        lowercase."""
        text = self._results[i]
        if text is None:
            step = self.steps[i]
            seen = self._tool_texts.get(step.call_id) if step.call_id is not None else None
            if seen is None:
                try:
                    seen = json.dumps(step.result, ensure_ascii=False, default=str)
                except (RecursionError, ValueError):  # a hostile result nested past any real one
                    seen = ""
            text = self._results[i] = seen.lower()
        return text

    def seen_before(self, value: str, i: int) -> bool:
        """Whether ``value`` (lowercase) was in the system prompt, a user turn before step ``i``'s
        call, or the result of an earlier step."""
        if value in self.system or self.user_text.find(value, 0, self.steps[i].cut) >= 0:
            return True
        return any(value in self.result_text(j) for j in range(i))

    def seen_anywhere(self, value: str) -> bool:
        """Whether ``value`` (lowercase) appears in a user turn, the system prompt, a tool result or
        a tool argument.

        Past the first few lookups, a value that is a whole word of that text is found in a set
        (see :meth:`_words_seen`) and only the rest are searched as substrings, so checking every
        word of a long reply costs the text's length about once, not once per word; a short
        reply never pays for the set."""
        self._lookups += 1
        if self._lookups > _SUBSTRING_LOOKUPS and value in self._words_seen():
            return True
        if value in self.user_text or value in self.system:
            return True
        seen = self._seen
        if value in seen:
            return seen[value]
        found = self._seen_in_calls(value)
        seen[value] = found
        return found

    def _words_seen(self) -> frozenset[str]:
        """The whitespace-separated words of everything seen (user turns, system prompt, tool
        results and arguments), lowercase, as written, with ``code_words``' edge punctuation
        stripped, and without a leading ``#``: each one a substring of that text, so membership
        answers :meth:`seen_anywhere` exactly when it says yes."""
        if self._pieces is None:
            words: set[str] = set()
            for text in (self.user_text, self.system, self._results_text(), self._arguments_text()):
                for word in text.split():
                    bare = word.strip(_EDGE)
                    words.update((word, bare, bare.lstrip("#")))
            self._pieces = frozenset(words)
        return self._pieces

    def _seen_in_calls(self, value: str) -> bool:
        return value in self._results_text() or value in self._arguments_text()

    def _results_text(self) -> str:
        """Every tool result's text, lowercase (built once)."""
        if self._everything is None:
            self._everything = "\n".join([self.result_text(i) for i in range(len(self.steps))])
        return self._everything

    def _arguments_text(self) -> str:
        """Every call's arguments as JSON, lowercase (built once)."""
        if self._args_text is None:
            self._args_text = json.dumps(
                [s.raw.get("arguments") for s in self.steps], ensure_ascii=False, default=str
            ).lower()
        return self._args_text

    def repeats(self) -> list[tuple[Step, Sequence[Step]]]:
        """Every call that repeats an earlier one (same tool, same arguments), with those earlier
        calls, in call order within each tool."""
        if self._repeats is None:
            out: list[tuple[Step, Sequence[Step]]] = []
            for calls in self.by_tool.values():
                earlier: dict[
                    Any, list[Step]
                ] = {}  # calls so far by their arguments: linear, not pairwise
                for step in calls:
                    same = earlier.setdefault(args_key(step.args), [])
                    if same:
                        out.append((step, _Prefix(same, len(same))))
                    same.append(step)
            self._repeats = out
        return self._repeats

    def replies_after(self, pos: int | None) -> str:
        """Assistant text from message ordinal ``pos`` on (all replies when unknown), joined."""
        if pos is None:
            return self.replies()
        return "\n".join(text for ordinal, text in self.assistant if ordinal >= pos) or self.final

    def replies(self) -> str:
        return "\n".join(text for _, text in self.assistant) or self.final


def args_key(value: Any) -> Any:
    """A hashable stand-in for JSON arguments that is equal exactly when the arguments are
    (``1 == 1.0 == True`` included, as ``==`` on the dicts has it)."""
    if isinstance(value, dict):
        try:
            return frozenset(value.items())  # flat arguments (the usual case) hash as they are
        except TypeError:
            return frozenset((k, args_key(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return ("[", *map(args_key, value))
    try:
        hash(value)
    except TypeError:
        return ("?", repr(value))
    return value


class _Prefix(Sequence):
    """The first ``n`` of a growing list, without copying it (each repeat's earlier calls are a
    prefix of the next repeat's: sharing the list keeps :meth:`Trajectory.repeats` linear)."""

    __slots__ = ("_items", "_n")

    def __init__(self, items: list[Step], n: int) -> None:
        self._items, self._n = items, n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self._items[: self._n][index]
        if not -self._n <= index < self._n:
            raise IndexError("repeat index out of range")
        return self._items[index % self._n]

    def __iter__(self) -> Iterator[Step]:
        return itertools.islice(self._items, self._n)


class _Messages(NamedTuple):
    """What the checks read off the transcript, in one pass over it."""

    system: list[str]
    originals: list[str]  # the user's turns as written
    users: list[str]  # the user's turns, lowercase
    cuts: list[int]  # for each assistant turn, how much user text came before it
    assistant: list[tuple[int, str]]  # (assistant turn, its text)
    call_pos: dict[Any, int]  # tool call id -> the assistant turn that made it
    tool_texts: dict[Any, str]  # tool call id -> the tool message's text
    over_long: int  # the longest assistant text past READ_CHARS, else 0


def _read_messages(messages: Iterable[Any]) -> _Messages:
    read = _Messages([], [], [], [], [], {}, {}, 0)
    total = 0
    over_long = 0
    for message in messages:
        if type(message) is not dict and not isinstance(message, dict):
            continue
        role = message.get("role")
        content = message.get("content")
        text = (
            content if type(content) is str else ("" if content is None else message_text(content))
        )
        if role == "tool":
            read.tool_texts[message.get("tool_call_id")] = text
        elif role == "assistant":
            ordinal = len(read.cuts)
            read.cuts.append(total)
            if len(text) > READ_CHARS:
                over_long = max(over_long, len(text))
                text = text[:READ_CHARS]
            if text and not text.isspace():
                read.assistant.append((ordinal, text))
            for call in message.get("tool_calls") or ():
                if type(call) is dict:
                    read.call_pos[call.get("id")] = ordinal
        elif role == "user":
            if not read.originals:
                read.originals.append(text)
            text = text.lower()
            read.users.append(text)
            total += len(text) + 1
        elif role == "system" or role == "developer":
            read.system.append(text)
    return read._replace(over_long=over_long)


def _read_steps(
    raw_steps: Iterable[Any], call_pos: Mapping[Any, int], cuts: list[int], everything: int
) -> tuple[list[Step], dict[str, list[Step]]]:
    """The ledger's steps, each placed at the assistant turn that made it, and grouped by tool."""
    steps: list[Step] = []
    by_tool: dict[str, list[Step]] = {}
    for raw in raw_steps:
        if not isinstance(raw, dict):
            continue
        step = Step(raw, len(steps))
        pos = call_pos.get(step.call_id) if step.call_id is not None else None
        step.pos = pos
        step.cut = cuts[pos] if pos is not None else everything
        steps.append(step)
        if step.tool in by_tool:
            by_tool[step.tool].append(step)
        else:
            by_tool[step.tool] = [step]
    return steps, by_tool
