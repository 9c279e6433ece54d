"""Operator documents of a document database's query language (MongoDB's, and the many stores
that copy it): an update is ``{"$set": {...}}`` and an aggregation is a list of ``$``-stages.

A field declared as a bare object or a list of them carries no properties to fill, so the value
maker would write a plain ``{"priority": "high"}`` where the field's description asks for
"update operator expressions" or "an array of aggregation stages". Such a value is not what a
user of that database writes, and a model trained on it learns the wrong syntax. The field's own
words decide, never a spec's name:

>>> operators_of("update", "an update document describing the modifications to apply using update operator expressions")
'update'
>>> operators_of("pipeline", "an array of aggregation stages to execute")
'pipeline'
>>> operators_of("fields", "the fields to change"), update_document({"priority": "high"})
(None, {'$set': {'priority': 'high'}})
"""

from __future__ import annotations

import random
import re
from typing import Any

from whileai_env._util.lexicon import name_tokens

_UPDATE_TEXT = re.compile(r"update operators?|operator expressions?|\$set\b|\$inc\b|\$push\b")
_PIPELINE_TEXT = re.compile(r"aggregation (?:stages?|pipeline)|pipeline stages?|\$match\b")


def operators_of(name: str, text: str) -> str | None:
    """Which operator document field ``name`` (described by ``text``, lowercased) holds:
    ``"update"``, ``"pipeline"``, or ``None`` for a plain object."""
    if _PIPELINE_TEXT.search(text) or ("pipeline" in name_tokens(name) and "aggregat" in text):
        return "pipeline"
    if _UPDATE_TEXT.search(text):
        return "update"
    return None


def update_document(changes: dict[str, Any]) -> dict[str, Any]:
    """The update that sets ``changes`` (``{"$set": {...}}``); already an operator document,
    it is left as it is."""
    if changes and all(isinstance(k, str) and k.startswith("$") for k in changes):
        return changes
    return {"$set": changes}


def pipeline(match: dict[str, Any], r: random.Random) -> list[dict[str, Any]]:
    """An aggregation over the records ``match`` selects: a ``$match`` stage, then a count per
    value of one of its fields, or the newest few.

    >>> pipeline({"status": "open"}, random.Random(0))[0]
    {'$match': {'status': 'open'}}
    """
    stages: list[dict[str, Any]] = [{"$match": match}]
    key = next(iter(match), "status")
    if r.random() < 0.6:
        stages.append({"$group": {"_id": f"${key}", "count": {"$sum": 1}}})
        stages.append({"$sort": {"count": -1}})
    else:
        stages.append({"$sort": {"created_at": -1}})
        stages.append({"$limit": r.choice((5, 10, 20))})
    return stages
