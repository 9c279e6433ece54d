"""Values that conform to a JSON Schema, seeded, taking real values from a hint where they fit.

When a tool declares an output schema, the world first builds its usual result (the record,
the list …) and then walks the schema: each property takes the hint's value of the same (or a
matching) name when that value is valid there, and is drawn fresh otherwise (by the one schema
walker, :mod:`whileai_env.world.schema_values`). So a declared output conforms, and still agrees
with what other tools say about the same entity.

>>> import random
>>> schema = {"type": "object", "properties": {"rate": {"type": "number"},
...           "as_of": {"type": "string", "format": "date-time"}}, "required": ["rate"]}
>>> synth(schema, {"rate": 1.08}, random.Random(0), now=0)["rate"]
1.08
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from whileai_env.world.makers import Scope
from whileai_env.world.schema_values import _NONE, hint_for, value_for

__all__ = ["hint_for", "synth"]


def synth(
    schema: Any,
    hint: Any,
    r: random.Random,
    *,
    now: int,
    name: str = "",
    root: Mapping[str, Any] | None = None,
) -> Any:
    """A value valid against ``schema``, preferring ``hint`` (and its parts) where they are valid."""
    seed = r.getrandbits(64)
    scope = Scope(seed=seed, now=now, person_seed=seed ^ 0x5EED)
    return value_for(schema, name, scope, root=root, hint=_NONE if hint is None else hint)
