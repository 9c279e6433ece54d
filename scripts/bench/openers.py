"""Print openers sampled across the corpus specs, for reading (and a few measured checks).

The openers are the first thing a trained agent reads, so they are judged by reading: this
prints ``-n`` of them (default 100), taken round-robin across the specs in ``tests/corpus/``
(the foreign specs; ``configs/specs/`` when the corpus is absent, or ``--specs DIR``), each with
the cell coordinates that shaped it. Deterministic: the same arguments print the same openers.

After the openers it prints what can be measured without a reader: the typo texture's dose
(misspellings per 100 words, counted against the same opener written in the standard texture),
openers that paste JSON into prose, persona/history frames that contradict each other, and
history frames on a task whose plan has no history (text values such as a file's content are
left out of the JSON check: they may hold anything), form-like label lists ("(namespace:
staging)", "Order id: X. Reason: Y."), and phrasing broken by the tool's name: a word said twice
("invite to to"), an empty label ("(: 3)"), a tool name run together said as a word
("sequentialthinking"), the tool's noun bare after a verb ("pull up monitor for …", outside the
clipped texture, which drops articles on purpose), and a
vague ask calling "my" a thing the person cannot own (the tool takes no id of it: "my square
root"). Template-sounding text still needs a reader.

    python scripts/bench/openers.py                 # 100 openers across tests/corpus (or configs/specs)
    python scripts/bench/openers.py -n 40 --seed 3 --specs configs/specs
    python scripts/bench/openers.py --quiet         # the measured checks only
"""

from __future__ import annotations

import argparse
import difflib
import math
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import whileai_env as wenv  # noqa: E402
from whileai_env._util.hashing import stable_hash  # noqa: E402
from whileai_env._util.lexicon import MASS_NOUNS, is_plural, name_tokens  # noqa: E402
from whileai_env.spec.arguments import argument_role  # noqa: E402
from whileai_env.writer import write_opener  # noqa: E402
from whileai_env.writer.tool_phrasing import tool_words  # noqa: E402
from whileai_env.writer.vocabulary import KNOWN_VERBS  # noqa: E402

_JSON = re.compile(r"[{\[]\s*\"")
_WORD = re.compile(r"[A-Za-z']+")
#: Persona openings that say this is the person's first contact, and frames that say it is not.
#: A label-value list: "(namespace: staging, …)", or two "Label: value." sentences in a row.
_FORM = re.compile(
    r"\([^()]*\b[A-Za-z][\w ]{0,30}: [^()]+\)|(?:^|[.!?] )[A-Z][\w ]{0,30}: [^.!?]+\. [A-Z][\w ]{0,30}: "
)
_DOUBLED = re.compile(r"\b([a-z]{2,})\s+\1\b", re.IGNORECASE)
_EMPTY_LABEL = re.compile(r"\(\s*:|,\s*:|\(\s*\)")
_FIRST_CONTACT = re.compile(r"first time|never done this|new here", re.IGNORECASE)
_FIRST_CONTACT_LINE = re.compile(
    r"[^.!?]*(?:first time|never done this|new here)[^.!?]*[.!?]?", re.IGNORECASE
)
_PRIOR_CONTACT = re.compile(
    r"\b(?:again|earlier|last time|before|yesterday|last week|following up|back about|second attempt|"
    r"already agreed|already been done|halfway|started on this|third time)\b",
    re.IGNORECASE,
)


def spec_paths(folder: Path | None) -> list[Path]:
    """The spec files to sample: ``folder``, else the corpus, else ``configs/specs``."""
    if folder is None:
        try:
            from tests.corpus import corpus_specs
        except ImportError:
            pass
        else:
            return corpus_specs()
    for candidate in [folder] if folder else [ROOT / "configs" / "specs"]:
        if candidate.is_dir():
            found = sorted(
                [
                    *candidate.glob("*.json"),
                    *candidate.glob("*.yaml"),
                    *candidate.glob("*/spec.yaml"),
                    *candidate.glob("*/spec.json"),
                ]
            )
            if found:
                return found
    raise SystemExit("no spec files found")


def load_specs(paths: list[Path]) -> list[tuple[str, wenv.Spec]]:
    """Every path that loads as a spec (a labels file or a broken spec is skipped, and said)."""
    out = []
    for path in paths:
        try:
            out.append(
                (path.parent.name if path.stem == "spec" else path.stem, wenv.load_spec(path))
            )
        except (wenv.SpecError, ValueError) as exc:
            print(f"# skipped {path.name}: {str(exc)[:80]}", file=sys.stderr)
    return out


def sample(
    specs: list[tuple[str, wenv.Spec]], n: int, seed: int
) -> list[tuple[str, wenv.Spec, wenv.Task]]:
    """``n`` tasks, round-robin over the specs, each spec's from its own seeded draw (seeded by
    the spec's name too, so specs with alike grids do not all show the same cells)."""
    per_spec = math.ceil(n / max(1, len(specs)))
    draws = [
        (
            name,
            spec,
            wenv.draw_tasks(spec, per_spec, seed=stable_hash("openers", seed, name) % 2**31),
        )
        for name, spec in specs
    ]
    out = []
    for i in range(per_spec):
        for name, spec, tasks in draws:
            if i < len(tasks) and len(out) < n:
                out.append((name, spec, tasks[i]))
    return out


def typo_count(task: wenv.Task, spec: wenv.Spec) -> tuple[int, int]:
    """(misspelt words, words) of a typo-texture opener, against its standard-texture twin."""
    cell = replace(task.cell, texture="standard")
    key = (task.seed, task.scenario_id, task.situation)
    plain = write_opener(cell, task.world, spec, phrasing=task.phrasing, key=key)
    typed, clean = _WORD.findall(task.opener), _WORD.findall(plain)
    # aligned (difflib), so a typo that splits or joins words does not shift every later word
    blocks = difflib.SequenceMatcher(a=clean, b=typed, autojunk=False).get_opcodes()
    return sum(max(i2 - i1, j2 - j1) for op, i1, i2, j1, j2 in blocks if op != "equal"), len(clean)


def name_breaks(task: wenv.Task, spec: wenv.Spec) -> list[str]:
    """The ways the opener's phrasing breaks on the target tool's name (module docstring)."""
    text = task.opener
    found = ["doubled word"] if _DOUBLED.search(text) else []
    found += ["empty label"] if _EMPTY_LABEL.search(text) else []
    for target in (t for t in task.world.targets if t in spec.tool_names):
        found += _target_breaks(task, spec, target)
    return found


def _target_breaks(task: wenv.Task, spec: wenv.Spec, target: str) -> list[str]:
    text, found = task.opener, []
    tokens = name_tokens(target)
    run_together = len(tokens) == 1 and len(target) >= 12 and tokens[0] not in KNOWN_VERBS
    if run_together and re.search(rf"\b{re.escape(target)}\b", text, re.IGNORECASE):
        found.append("run-together name")
    noun = tool_words(spec, target).noun
    countable = bool(noun) and " " not in noun and noun not in MASS_NOUNS and not is_plural(noun)
    bare = rf"\b(?:need|up|check|get|find|through|open|on) {re.escape(noun)} (?:for|on|in|of)\b"
    # the clipped texture drops articles on purpose
    if countable and task.texture != "clipped" and re.search(bare, text):
        found.append("bare noun")
    vague = tool_words(spec, target).vague_noun(task.world.required.get(target, ()))
    if task.cell.ask == "vague" and f"my {vague}" in text and not _takes_id(spec, target):
        found.append("'my' thing with no id")
    return found


def _takes_id(spec: wenv.Spec, target: str) -> bool:
    tool = spec.tool(target)
    return any(argument_role(n, s) == "locator" for n, s in tool.properties.items())


def checks(rows: list[tuple[str, wenv.Spec, wenv.Task]]) -> dict[str, object]:
    """The measured checks over the sampled openers (see the module docstring)."""
    typos = words = 0
    json_in_prose = contradicting = history_without = forms = 0
    breaks: dict[str, int] = {}
    for _, spec, task in rows:
        text = task.opener
        forms += bool(_FORM.search(text))
        for kind in name_breaks(task, spec):
            breaks[kind] = breaks.get(kind, 0) + 1
        if task.texture == "typo":
            t, w = typo_count(task, spec)
            typos, words = typos + t, words + w
        if _JSON.search(_without_texts(text, task.world.details)):
            json_in_prose += 1
        if _FIRST_CONTACT.search(text) and _PRIOR_CONTACT.search(_FIRST_CONTACT_LINE.sub("", text)):
            contradicting += 1
        if (
            task.world.history == "fresh"
            and task.cell.history != "fresh"
            and task.cell.tool != "unrelated"
        ):
            history_without += _history_frame(task, spec)
    return {
        "openers": len(rows),
        "typo texture: misspellings per 100 words": round(100 * typos / words, 1)
        if words
        else None,
        "JSON pasted into prose": json_in_prose,
        "first-contact persona with a prior-contact frame": contradicting,
        "history frame on a task with no history": history_without,
        "form-like label lists": forms,
        "phrasing broken by the tool's name": sum(breaks.values()),
        **{f"  of which {kind}": n for kind, n in sorted(breaks.items())},
    }


def _without_texts(text: str, value: object) -> str:
    """``text`` less every text value inside ``value`` (a file's content may be JSON itself)."""
    if isinstance(value, Mapping):
        for v in value.values():
            text = _without_texts(text, v)
    elif isinstance(value, Sequence) and not isinstance(value, str):
        for v in value:
            text = _without_texts(text, v)
    elif isinstance(value, str) and value.strip():
        text = text.replace(value.strip(), "")
    return text


def _history_frame(task: wenv.Task, spec: wenv.Spec) -> int:
    """1 when the opener differs from the one written with a fresh history (a frame was added)."""
    cell = replace(task.cell, history="fresh")
    key = (task.seed, task.scenario_id, task.situation)
    return int(write_opener(cell, task.world, spec, phrasing=task.phrasing, key=key) != task.opener)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=100, help="openers to print (100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--specs", type=Path, default=None, help="a folder of spec files")
    parser.add_argument("--quiet", action="store_true", help="print the measured checks only")
    args = parser.parse_args(argv)
    rows = sample(load_specs(spec_paths(args.specs)), args.n, args.seed)
    if not args.quiet:
        for i, (name, spec, task) in enumerate(rows):
            d = task.dimensions
            print(
                f"[{i:3d}] {name} · {d['tool']} · ask={d['ask']} stance={d['stance']} history={task.world.history} "
                f"persona={d['persona']} tone={d['tone']} texture={d['texture']}"
            )
            print(f"      {task.opener}")
            flags = name_breaks(task, spec) + (["form-like"] if _FORM.search(task.opener) else [])
            if flags:
                print(f"      ^ {', '.join(flags)}")
    print()
    for label, value in checks(rows).items():
        print(f"{label}: {value}")


if __name__ == "__main__":
    main()
