"""Kinds on the foreign-spec corpus agree with the hand labels (``tests/corpus/labels.json``)."""

from __future__ import annotations

import json

import whileai_env as wenv
from tests.corpus import LABELS_PATH, corpus_specs
from whileai_env.spec.kinds import WRITE_KINDS


def _compare() -> tuple[int, list[str]]:
    labels = json.loads(LABELS_PATH.read_text())
    compared, disagreements = 0, []
    for path in corpus_specs():
        try:
            spec = wenv.load_spec(path)
        except wenv.SpecError:
            continue  # a known loader defect, tracked by the corpus's own tests
        for tool in spec.tools:
            label = labels.get(spec.name, {}).get(tool.name)
            if label is None:
                continue
            compared += 1
            if label != tool.kind:
                mark = "R/W" if (label in WRITE_KINDS) != tool.is_write else "w/w"
                disagreements.append(
                    f"{mark} {spec.name}.{tool.name}: label {label}, kind {tool.kind}"
                )
    return compared, disagreements


def test_kinds_agree_with_the_hand_labels():
    compared, disagreements = _compare()
    assert compared >= 400, f"only {compared} labelled tools loaded"
    agreement = 1 - len(disagreements) / compared
    assert agreement >= 0.97, f"{agreement:.1%} agree on {compared} tools:\n" + "\n".join(
        disagreements
    )
    # A read taken for a write (or a write for a read) changes a grade: keep those rare.
    assert sum(d.startswith("R/W") for d in disagreements) <= 0.01 * compared, "\n".join(
        disagreements
    )
