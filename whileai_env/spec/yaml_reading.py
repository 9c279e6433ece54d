"""YAML specs with limits: a safe loader, bounded nesting, bounded alias expansion, no cycles.

``yaml.safe_load`` builds aliases as shared references, which is cheap, but everything after it
(freezing the schema, hashing it, checking it) walks the *expanded* tree: a 436-byte alias
bomb in an ``enum`` expands to hundreds of millions of strings (77 s and 2.4 GB before this
module). A recursive anchor (``&a [*a]``) builds a cycle that ends in ``RecursionError``. So the
document is composed first (nodes only), the node graph is checked — nesting at most
:data:`MAX_DEPTH`, at most :data:`MAX_EXPANDED` nodes once aliases are expanded, no node that
contains itself — and only then constructed. Every refusal is a one-line ``SpecError`` naming
the file and line.
"""

from __future__ import annotations

from typing import Any

import yaml

from whileai_env.errors import SpecError

#: Deepest nesting of a spec document (JSON or YAML).
MAX_DEPTH = 64
#: Most nodes a YAML document may hold with every alias expanded.
MAX_EXPANDED = 1_000_000


class _TooDeep(Exception):
    def __init__(self, mark: Any) -> None:
        super().__init__("too deep")
        self.mark = mark


class _Loader(yaml.SafeLoader):
    """``SafeLoader`` whose composer stops past :data:`MAX_DEPTH` levels of nesting."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _TooDeep(self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _line(node: yaml.Node) -> int | None:
    mark = getattr(node, "start_mark", None)
    return mark.line + 1 if mark is not None else None


def _expanded_size(
    node: yaml.Node, origin: str, sizes: dict[int, int], open_: set[int], depth: int
) -> int:
    """Nodes under ``node`` with aliases expanded (memoised per node, so linear in the file)."""
    key = id(node)
    if key in sizes:
        return sizes[key]
    if key in open_:
        raise SpecError(
            "a YAML anchor refers to itself (a recursive alias), so the spec has no end",
            source=origin,
            line=_line(node),
        )
    if depth > MAX_DEPTH:
        raise SpecError(
            f"the YAML is nested more than {MAX_DEPTH} levels deep", source=origin, line=_line(node)
        )
    open_.add(key)
    total = 1
    for child in _children(node):
        total += _expanded_size(child, origin, sizes, open_, depth + 1)
        if total > MAX_EXPANDED:
            raise SpecError(
                f"the YAML expands to more than {MAX_EXPANDED:,} values once its aliases are "
                "followed (an alias bomb?)",
                source=origin,
                line=_line(node),
            )
    open_.discard(key)
    sizes[key] = total
    return total


def read_yaml(text: str, origin: str) -> Any:
    """The document in ``text``, read with :class:`yaml.SafeLoader` under the limits above."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded_size(node, origin, {}, set(), 0)
        return loader.construct_document(node)
    except _TooDeep as exc:
        line = exc.mark.line + 1 if exc.mark is not None else None
        raise SpecError(
            f"the YAML is nested more than {MAX_DEPTH} levels deep", source=origin, line=line
        ) from None
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise SpecError(f"invalid YAML: {exc.problem}", source=origin, line=line) from None
    except yaml.YAMLError as exc:
        raise SpecError(f"invalid YAML: {exc}", source=origin) from None
    except RecursionError:
        raise SpecError("the YAML is nested too deeply to read", source=origin) from None
    finally:
        loader.dispose()
