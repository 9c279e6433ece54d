"""Hostile actions through the Gymnasium env: nothing raises, no step is slow, every row is valid.

Generates ``--n`` actions (default 100,000) from a fixed seed, across the example specs
(``configs/specs/*``) and any foreign specs in ``tests/corpus/``, and plays them through
``gymnasium.make("whileai/agent", spec=...)``. Each action is drawn from one *family* (a valid
call, a call with mutated arguments, random tag/bracket/quote text, deep nesting, huge numbers,
odd Python values, junk message dicts, long degenerate text, oversize text). Episodes are cut
at a random length; every finished or cut episode's row goes through ``validate_row``. Before
the timed actions, each env plays one graded episode (a call and a reply) untimed: the first
graded step of a process imports the grading modules and compiles their phrase families, and
a spec's first compiles its tools' claim patterns, a one-time cost that is printed apart.

Prints: actions, raised, steps over 50 ms of wall-clock and of CPU time (the second is the
fairer figure on a busy machine; and how many were an episode's last step, which grades the
transcript), max step ms (and its family), p50/p99 step ms, the parser's own
worst time (``parse_action`` timed alone on the same action), rows checked and rows invalid, then
the counts per family.

    python scripts/bench/fuzz.py
    python scripts/bench/fuzz.py --n 5000 --seed 1
"""

from __future__ import annotations

import argparse
import gc
import heapq
import json
import math
import random
import sys
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import gymnasium  # noqa: E402

import whileai_env as wenv  # noqa: E402
from whileai_env.episode.actions import parse_action  # noqa: E402

SLOW_MS = 50.0
WARM_UP_REPLIES = 16
NON_OBJECTS = ("5", "[1]", "null", '"x"', "true", "-0.5")
SPEC_SUFFIXES = (".json", ".yaml", ".yml")
FRAGMENTS = (
    "<tool_call>",
    "</tool_call>",
    "```",
    "```json\n",
    "{",
    "}",
    "[",
    "]",
    '"',
    "\\",
    "\n",
    " ",
    ",",
    ":",
    '"name"',
    '"arguments"',
    '"function"',
    '"parameters"',
    "9" * 120,
    "NaN",
    "-1e999",
    "\ud800",
    "\x00",
    "x",
    "null",
    "true",
    '{"role": "assistant", "content": ',
    '"tool_calls": [',
    "\u202e",
    "é",
)


class GcClock:
    """CPU milliseconds spent in the garbage collector so far (a pause inside a step is not the step's
    own cost, so the report counts slow steps with and without it)."""

    def __init__(self) -> None:
        self.ms = 0.0
        self._start = 0.0
        gc.callbacks.append(self._tick)

    def _tick(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = time.thread_time()
        else:
            self.ms += (time.thread_time() - self._start) * 1000


class Unprintable:
    """An object whose ``str`` and ``repr`` raise."""

    def __str__(self) -> str:
        raise RuntimeError("unprintable")

    __repr__ = __str__


def spec_paths() -> list[Path]:
    """The example specs and the corpus specs (files with a spec suffix, or spec folders)."""
    paths = []
    for folder in (ROOT / "configs" / "specs", ROOT / "tests" / "corpus"):
        if folder.is_dir():
            paths += [
                p for p in sorted(folder.iterdir()) if p.suffix in SPEC_SUFFIXES or p.is_dir()
            ]
    return paths


def load_envs(paths: list[Path]) -> tuple[list[tuple[str, Any, wenv.Spec]], list[str]]:
    """``(name, env, spec)`` for each spec that loads and builds; the names of those that do not."""
    envs, skipped = [], []
    for path in paths:
        try:
            spec = wenv.load_spec(path)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                env = gymnasium.make("whileai/agent", spec=spec, situations=40)
            envs.append((path.name, env, spec))
        except Exception as exc:  # a corpus spec may be refused on purpose
            skipped.append(f"{path.name} ({type(exc).__name__})")
    return envs, skipped


# ---------------------------------------------------------------------------------------------
# Action families


def warm_up(envs: list[tuple[str, Any, wenv.Spec]]) -> float:
    """Play one graded episode to its end on each env (a call, then replies until the episode
    ends: the simulated user may answer a reply, and only the last step grades); return the
    seconds it took."""
    start = time.perf_counter()
    for _, env, spec in envs:
        env.reset(seed=0)
        tool = spec.tools[0]
        env.step({"tool_calls": [{"function": {"name": tool.name, "arguments": {}}}]})
        for _ in range(WARM_UP_REPLIES):
            _, _, terminated, truncated, _ = env.step("I have done that; anything else?")
            if terminated or truncated:
                break
    return time.perf_counter() - start


def _noise(r: random.Random, size: int) -> str:
    return "".join(r.choice(FRAGMENTS) for _ in range(size))


def _value(r: random.Random, depth: int = 0) -> Any:
    """A random JSON-ish value, sometimes not JSON at all."""
    pick = r.randrange(12 if depth < 3 else 8)
    leaves = [
        None,
        r.random() < 0.5,
        r.randint(-(10**6), 10**6),
        r.random() * 1e6,
        _noise(r, r.randint(0, 6)),
        "ORD-" + str(r.randint(1, 9999)),
        math.nan,
        10 ** r.choice((3, 30, 400)),
    ]
    if pick < 8:
        return leaves[pick]
    if pick < 10:
        return [_value(r, depth + 1) for _ in range(r.randint(0, 3))]
    return {
        r.choice(("order_id", "id", "email", "amount", "x", "")): _value(r, depth + 1)
        for _ in range(r.randint(0, 3))
    }


def _arguments(r: random.Random, spec: wenv.Spec, tool: Any) -> Any:
    return {name: _value(r) for name in list(tool.properties)[: r.randint(0, 4)]} or {
        "x": _value(r)
    }


def valid_call(r: random.Random, spec: wenv.Spec) -> Any:
    tool = r.choice(spec.tools)
    args = {name: "ORD-" + str(r.randint(1, 999)) for name in tool.required}
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"c{r.randint(0, 99)}",
                "type": "function",
                "function": {"name": tool.name, "arguments": _json(args)},
            }
        ],
    }


def mutated_call(r: random.Random, spec: wenv.Spec) -> Any:
    tool = r.choice(spec.tools)
    shape = r.randrange(4)
    args = _arguments(r, spec, tool)
    if shape == 0:
        return f'<tool_call>{{"name": "{tool.name}", "arguments": {_json(args)}}}</tool_call>'
    if shape == 1:
        odd = r.choice(NON_OBJECTS)
        return f'<tool_call>{{"name": "{tool.name}", "arguments": {odd}}}'
    if shape == 2:
        return {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"function": {"name": tool.name, "arguments": args}}],
        }
    return "Sure.\n```json\n" + f'{{"name": "{tool.name}", "arguments": {_json(args)}}}' + "\n```"


def noise_text(r: random.Random, spec: wenv.Spec) -> Any:
    return _noise(r, r.randint(0, 60)) * r.choice((1, 1, 3, 40))


def deep(r: random.Random, spec: wenv.Spec) -> Any:
    depth = r.choice((40, 1000, 3000, 20000))
    body = r.choice(("[" * depth, '{"a":' * depth, "[" * depth + "]" * depth))
    return r.choice(
        (
            body,
            f"<tool_call>{body}</tool_call>",
            {"tool_calls": [{"function": {"name": spec.tools[0].name, "arguments": body}}]},
        )
    )


def huge_number(r: random.Random, spec: wenv.Spec) -> Any:
    digits = r.choice((101, 4301, 5000, 20000))
    name = r.choice(spec.tools).name
    if r.random() < 0.5:
        return f'<tool_call>{{"name": "{name}", "arguments": {{"x": {"9" * digits}}}}}</tool_call>'
    return {"tool_calls": [{"function": {"name": name, "arguments": {"x": 10**digits}}}]}


def odd_value(r: random.Random, spec: wenv.Spec) -> Any:
    cyclic: dict = {}
    cyclic["me"] = cyclic
    return r.choice(
        [
            None,
            b"\xff\xfe\x00junk",
            math.nan,
            math.inf,
            7,
            {1, 2},
            frozenset(),
            (),
            [1, None, "a"],
            Unprintable(),
            [Unprintable()],
            cyclic,
            [cyclic],
            bytearray(b"<tool_call>"),
            object(),
            10**5000,
            True,
            [{"x": 1}],
        ]
    )


def junk_message(r: random.Random, spec: wenv.Spec) -> Any:
    cyclic: dict = {"a": 1}
    cyclic["b"] = cyclic
    content = r.choice(
        [
            None,
            5,
            b"bytes",
            [{"type": "text", "text": r.choice([None, 5, b"x", "ok", Unprintable()])}],
            {"nested": True},
            Unprintable(),
            _noise(r, 10),
        ]
    )
    function = {
        "name": r.choice([spec.tools[0].name, "", 5, None, Unprintable(), "n" * 10000]),
        "arguments": r.choice(
            [cyclic, {(1, 2): 3}, {1: 2}, 10**5000, Unprintable(), "{", "[]", None, {"x": b"y"}]
        ),
    }
    calls = r.choice(
        [[{"function": function}], {"function": function}, 5, "x", [5, None], [Unprintable()]]
    )
    return {"role": r.choice(["assistant", None, 5]), "content": content, "tool_calls": calls}


def long_text(r: random.Random, spec: wenv.Spec) -> Any:
    size = r.choice((8192, 65536, 200_000))
    return r.choice(
        [
            "<tool_call>a" + "\n" * size + "b",
            ("```{x}y" * (size // 7 + 1))[:size],
            '"' + '\\"' * (size // 2),
            "[]" * (size // 2),
            "<tool_call>" * (size // 11),
            ("{" + '"a": [' * 5) * (size // 32),
        ]
    )


def oversize(r: random.Random, spec: wenv.Spec) -> Any:
    return r.choice(
        ["x" * 300_000, {"role": "assistant", "content": "y" * 300_000}, b"z" * 2_000_000]
    )


def _json(value: Any) -> str:
    try:
        return json.dumps(value, default=str)
    except Exception:
        return "{"


FAMILIES = {
    "valid_call": (valid_call, 20),
    "mutated_call": (mutated_call, 25),
    "noise_text": (noise_text, 20),
    "deep": (deep, 5),
    "huge_number": (huge_number, 5),
    "odd_value": (odd_value, 8),
    "junk_message": (junk_message, 12),
    "long_text": (long_text, 3),
    "oversize": (oversize, 2),
}


# ---------------------------------------------------------------------------------------------
# The run


def run(n: int, seed: int) -> dict[str, Any]:
    """Play ``n`` hostile actions and return the counts."""
    r = random.Random(seed)
    envs, skipped = load_envs(spec_paths())
    warm = warm_up(envs)
    names, weights = list(FAMILIES), [w for _, w in FAMILIES.values()]
    stats: dict[str, Counter] = defaultdict(Counter)
    times: list[float] = []
    worst = (0.0, "")
    slowest: list[tuple[float, str, str, bool]] = []
    parser_worst = parser_cpu_worst = parser_no_gc_worst = 0.0
    clock = GcClock()
    rows = Counter()
    current = [None] * len(envs)
    left = [0] * len(envs)
    for i in range(n):
        k = i % len(envs)
        _, env, spec = envs[k]
        if current[k] is None:
            env.reset(seed=r.randrange(2**31))
            current[k], left[k] = True, r.randint(1, 8)
        family = r.choices(names, weights)[0]
        action = FAMILIES[family][0](r, spec)
        stats[family]["actions"] += 1
        start, cpu, paused = time.perf_counter(), time.thread_time(), clock.ms
        parse_action(action)
        parse_ms = (time.perf_counter() - start) * 1000
        parser_worst = max(parser_worst, parse_ms)
        parser_cpu_worst = max(parser_cpu_worst, (time.thread_time() - cpu) * 1000)
        parser_no_gc_worst = max(
            parser_no_gc_worst, (time.thread_time() - cpu) * 1000 - (clock.ms - paused)
        )
        if parse_ms > SLOW_MS:
            stats[family]["parse_over_50ms"] += 1
        start, cpu, paused = time.perf_counter(), time.thread_time(), clock.ms
        try:
            _, _, terminated, truncated, _ = env.step(action)
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            stats[family]["raised"] += 1
            stats[family][f"raised {type(exc).__name__}"] += 1
            terminated = truncated = True
        ms = (time.perf_counter() - start) * 1000
        cpu_ms = (time.thread_time() - cpu) * 1000
        times.append(ms)
        if ms > SLOW_MS:
            stats[family]["over_50ms"] += 1
            stats[family]["over_50ms_final"] += bool(terminated or truncated)
        if cpu_ms > SLOW_MS:
            stats[family]["cpu_over_50ms"] += 1
            stats[family]["cpu_over_50ms_final"] += bool(terminated or truncated)
        if cpu_ms - (clock.ms - paused) > SLOW_MS:
            stats[family]["cpu_no_gc_over_50ms"] += 1
            stats[family]["cpu_no_gc_over_50ms_final"] += bool(terminated or truncated)
        if ms > worst[0]:
            worst = (ms, family)
        slowest = heapq.nlargest(
            5, [*slowest, (cpu_ms, family, envs[k][0], bool(terminated or truncated))]
        )
        left[k] -= 1
        if terminated or truncated or left[k] <= 0:
            rows["checked"] += 1
            try:
                wenv.validate_row(env.unwrapped.row())
            except Exception:
                rows["invalid"] += 1
            current[k] = None
    times.sort()
    return {
        "n": n,
        "seed": seed,
        "specs": [name for name, _, _ in envs],
        "skipped": skipped,
        "warm_up_s": warm,
        "stats": stats,
        "times": times,
        "worst": worst,
        "slowest": slowest,
        "rows": rows,
        "parser_worst": parser_worst,
        "parser_cpu_worst": parser_cpu_worst,
        "parser_no_gc_worst": parser_no_gc_worst,
        "gc_ms": clock.ms,
    }


def report(result: dict[str, Any], elapsed: float) -> None:
    stats, times = result["stats"], result["times"]
    total = sum(stats.values(), Counter())
    pct = lambda q: times[min(len(times) - 1, int(q * len(times)))]  # noqa: E731
    print(f"specs: {len(result['specs'])} ({', '.join(result['specs'])})")
    if result["skipped"]:
        print(
            f"specs skipped (refused at load): {len(result['skipped'])}: {', '.join(result['skipped'])}"
        )
    print(
        f"warm-up (one graded episode per spec, untimed): {result['warm_up_s']:.1f} s; "
        f"actions: {result['n']:,} (seed {result['seed']}) in {elapsed:.1f} s in all"
    )
    print(f"raised: {total['raised']}")
    print(
        f"steps over {SLOW_MS:.0f} ms: {total['over_50ms']} wall ({total['over_50ms_final']} of them the episode's "
        f"last, graded step), {total['cpu_over_50ms']} CPU ({total['cpu_over_50ms_final']} last steps), "
        f"{total['cpu_no_gc_over_50ms']} CPU less GC pauses ({total['cpu_no_gc_over_50ms_final']} last steps)"
    )
    print(
        f"max step ms: {result['worst'][0]:.1f} ({result['worst'][1]})   p50 {pct(0.5):.2f}   p99 {pct(0.99):.2f}"
    )
    print(
        f"parse_action alone: max {result['parser_worst']:.1f} ms wall, {result['parser_cpu_worst']:.1f} ms CPU, "
        f"{result['parser_no_gc_worst']:.1f} ms CPU less GC pauses; over {SLOW_MS:.0f} ms wall: "
        f"{total['parse_over_50ms']}"
    )
    print(f"garbage collector: {result['gc_ms'] / 1000:.1f} s in all")
    print(
        "slowest steps by CPU: "
        + "; ".join(
            f"{ms:.1f} ms {family} on {spec}{' (last step)' if last else ''}"
            for ms, family, spec, last in result["slowest"]
        )
    )
    print(
        f"rows checked: {result['rows']['checked']:,}   rows invalid: {result['rows']['invalid']}"
    )
    print("per family: actions / raised / steps over 50 ms (last steps)")
    for family in FAMILIES:
        s = stats[family]
        kinds = ", ".join(f"{k[7:]} {v}" for k, v in s.items() if k.startswith("raised "))
        print(
            f"  {family:13s} {s['actions']:7,} {s['raised']:6} {s['over_50ms']:6} ({s['over_50ms_final']})"
            + (f"  raised: {kinds}" if kinds else "")
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000, help="hostile actions to play")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    result = run(args.n, args.seed)
    report(result, time.perf_counter() - start)


if __name__ == "__main__":
    main()
