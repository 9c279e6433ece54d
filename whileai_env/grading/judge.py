"""Grade rollout rows with any judge callable, and mark every row the judge failed to grade.

A judge is any callable ``judge(row)``: an LLM judge, a rules engine, a reward model, a lookup
of human labels. The harness does not care how the reward was produced, only that the verdict
honours one contract:

- a bare number (``int``, ``float``, ``bool``; finite) is the reward;
- a dict ``{"reward": number, "reason"?: str, "markers"?: {name: number}, ...}``: ``reward`` is
  the reward, ``reason`` is kept on the row, ``markers`` are merged into ``row["markers"]`` and
  every other key (``failure_class`` and anything else) is kept in ``row["judge_meta"]``.

Anything else marks the row and sets ``reward`` to ``None`` rather than to 0, so a broken
judge shows up as unjudged rows instead of as a policy that looks bad. ``row["judge_status"]``
says which way it went:

``ok``
    the verdict honoured the contract.
``missing_reward``
    a dict verdict without ``reward`` (or with ``reward: None``).
``invalid_result``
    any other shape: a string, a list, ``None``, NaN or infinity, a non-numeric ``reward``, or
    ``markers`` that are not ``{str: finite number}``.
``error``
    the judge raised; ``judge_meta["error"]`` keeps ``"<ExceptionType>: <message>"``.
``timeout``
    the judge did not return within ``timeout`` seconds of its start, or raised ``TimeoutError``
    (a model judge whose endpoint did not answer in time).

A judge that raises :class:`~whileai_env.errors.JudgeOutputError` (a model judge whose answer
could not be read) marks the row ``invalid_result``, as a malformed verdict does.

On every failure ``judge_meta["error"]`` describes what went wrong (a judge's own ``error``
key is kept as ``judge_meta["judge_error"]``).

>>> rows = [{"prompt": "Cancel order 7", "final_text": "Done, order 7 is cancelled."},
...         {"prompt": "Cancel order 7", "final_text": "Sorry, I cannot help."}]
>>> graded = run_judge(rows, lambda row: {"reward": int("sorry" not in row["final_text"].lower())})
>>> [(row["reward"], row["judge_status"]) for row in graded]
[(1.0, 'ok'), (0.0, 'ok')]
>>> judge_report(run_judge(rows, lambda row: "yes"))["invalid_result"]
2
"""

from __future__ import annotations

import functools
import math
import numbers
import queue
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, NamedTuple, cast

from whileai_env._util.frozen import copy_tree
from whileai_env.errors import JudgeOutputError

JUDGE_STATUSES = ("ok", "missing_reward", "invalid_result", "error", "timeout")
_VERDICT_FIELDS = ("reward", "reason", "markers")


class Verdict(NamedTuple):
    """A judge's result after the contract was applied: what lands on the row."""

    status: str
    reward: float | None
    reason: str | None
    markers: dict[str, float]
    meta: dict[str, Any]


def normalise_verdict(value: Any) -> Verdict:
    """Apply the judge contract to one raw judge result.

    Returns ``Verdict(status, reward, reason, markers, meta)``; ``status`` is one of
    ``JUDGE_STATUSES`` other than ``error`` and ``timeout`` (those come from running the
    judge, not from its result). ``reward`` is a ``float`` when ``status == "ok"`` and
    ``None`` otherwise.

    >>> normalise_verdict(True).reward
    1.0
    >>> normalise_verdict({"reward": 0.5, "markers": {"grounded": 1}, "model": "m"})
    Verdict(status='ok', reward=0.5, reason=None, markers={'grounded': 1.0}, meta={'model': 'm'})
    >>> normalise_verdict({"reason": "could not parse"}).status
    'missing_reward'
    >>> normalise_verdict(float("nan")).status
    'invalid_result'
    """
    if isinstance(value, Mapping):
        return _from_mapping(value)
    reward, problem = _as_number(value, "verdict")
    if problem is not None:
        return _failed("invalid_result", problem)
    return Verdict("ok", reward, None, {}, {})


def run_judge(
    rows: Iterable[Mapping[str, Any]],
    judge: Callable[[dict[str, Any]], Any],
    *,
    timeout: float | None = None,
    concurrency: int = 1,
    name: str | None = None,
    version: str | None = None,
) -> list[dict[str, Any]]:
    """Grade ``rows`` with ``judge`` and return graded copies, in input order.

    Each output row is a deep copy of its input with ``reward``, ``reason``, ``markers``
    (the row's own markers plus the judge's), ``judge_name`` (``name`` or the callable's
    name), ``judge_status`` and ``judge_meta`` (the verdict's extra keys, plus ``version``
    when given) set. The inputs are never mutated; the judge gets its own deep copy of each
    row, so a judge that edits its argument changes nothing.

    ``judge`` may be a plain function, any callable object, or a coroutine function (an async
    judge, run to completion on its own event loop). Up to ``concurrency`` rows are judged at
    once on daemon threads; the output order is the input order whatever order they finish in.

    ``timeout`` (seconds, per row, counted from that row's start) marks a row ``timeout``
    when its judge has not returned by then. A thread cannot be killed, so the timed-out
    judge call keeps running in the background and its late result is discarded; its slot is
    handed to the next row, so a hung judge neither blocks the return nor stalls the other
    rows. Abandoned calls are daemon threads and do not hold up interpreter exit.

    >>> rows = [{"prompt": "p", "final_text": "ok"}]
    >>> row = run_judge(rows, lambda row: {"reward": 1, "markers": {"polite": 1.0}}, name="j")[0]
    >>> row["reward"], row["markers"], row["judge_name"], row["judge_status"]
    (1.0, {'polite': 1.0}, 'j', 'ok')
    """
    if not callable(judge):
        raise TypeError(f"judge must be callable, got {type(judge).__name__}")
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise ValueError(f"concurrency must be a positive int, got {concurrency!r}")
    if timeout is not None and (
        isinstance(timeout, bool)
        or not isinstance(timeout, numbers.Real)
        or not math.isfinite(timeout)
        or timeout <= 0
    ):
        raise ValueError(f"timeout must be a positive number of seconds or None, got {timeout!r}")
    rows = list(rows)
    for index, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise TypeError(f"row {index} is a {type(row).__name__}, not a mapping")
    named = name if name is not None else judge_name(judge)
    verdicts = _judge_all(rows, judge, timeout, concurrency)
    return [
        _graded(row, verdict, named, version) for row, verdict in zip(rows, verdicts, strict=True)
    ]


def grade_own_row(row: dict[str, Any], judge: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """Grade ``row`` as :func:`run_judge` would, writing the columns into ``row`` itself.

    For a caller that owns the row and keeps no other copy (``simulate`` grading a rollout it
    just played): the judge still gets its own copy, so a judge that edits its argument changes
    nothing, but the graded row is not copied again. The built-in
    :func:`~whileai_env.grading.task_checklist` only reads its row (the episode grades its own
    transcript with it uncopied too), so it is handed the row itself.

    >>> row = grade_own_row({"final_text": "ok"}, lambda row: 1)
    >>> row["reward"], row["judge_status"]
    (1.0, 'ok')
    """
    from whileai_env.grading.checklist import task_checklist

    verdict = _judge_all([row], judge, None, 1, copy_rows=judge is not task_checklist)[0]
    return _with_columns(row, verdict, judge_name(judge), None)


def judge_verdict(
    judge: Callable[[dict[str, Any]], Any],
    row: dict[str, Any],
    *,
    timeout: float | None = None,
) -> Verdict:
    """Run ``judge`` on one row under the judge contract: the one runner every face uses.

    :func:`run_judge`, :meth:`whileai_env.Episode.reward` (so the Gymnasium env) and
    ``simulate(...).grade()`` all come here, so a sync or async judge, one that raises, hangs or
    returns junk gets the same status and reward whichever way the row was graded. ``row`` is
    handed to the judge as it is: pass a copy you own.

    >>> judge_verdict(lambda row: {"reward": 1, "why": "ok"}, {}).meta
    {'why': 'ok'}
    """
    return _judge_all([row], judge, timeout, 1, copy_rows=False)[0]


def judgment_columns(
    verdict: Verdict, judge_name: str, version: str | None = None
) -> dict[str, Any]:
    """The row columns a verdict sets: ``reward``, ``reason``, ``markers`` (the judge's),
    ``judge_name``, ``judge_status`` and ``judge_meta`` (with ``version`` when given)."""
    meta = dict(verdict.meta)
    if version is not None:
        meta["version"] = version
    return {
        "reward": verdict.reward,
        "reason": verdict.reason,
        "markers": dict(verdict.markers),
        "judge_name": judge_name,
        "judge_status": verdict.status,
        "judge_meta": meta,
    }


def judge_name(judge: Callable[..., Any]) -> str:
    """The name a judge's rows carry: the function's (through ``functools.partial``), else its type's."""
    target: Any = judge
    while isinstance(target, functools.partial):
        target = target.func
    name = getattr(target, "__name__", None)
    return name if isinstance(name, str) and name else type(target).__name__


def judge_report(rows: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Count rows by ``judge_status``; rows that were never judged count as ``ungraded``.

    Every status in ``JUDGE_STATUSES`` and ``ungraded`` is present (zero when absent), so a
    caller can check ``report["ok"] == len(rows)`` without ``.get``.

    >>> judge_report([{"judge_status": "ok"}, {"judge_status": "timeout"}, {}])
    {'ok': 1, 'missing_reward': 0, 'invalid_result': 0, 'error': 0, 'timeout': 1, 'ungraded': 1}
    """
    counts = dict.fromkeys((*JUDGE_STATUSES, "ungraded"), 0)
    for row in rows:
        status = row.get("judge_status")
        key = "ungraded" if status is None else str(status)
        counts[key] = counts.get(key, 0) + 1
    return counts


def _failed(
    status: str, problem: str, reason: str | None = None, meta: Mapping[str, Any] | None = None
) -> Verdict:
    kept = dict(meta or {})
    if "error" in kept:
        kept["judge_error"] = kept.pop("error")
    kept["error"] = problem
    return Verdict(status, None, reason, {}, kept)


def _is_numpy_bool(value: Any) -> bool:
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.bool_)


def _as_number(value: Any, what: str) -> tuple[float | None, str | None]:
    """``(float, None)`` for a finite real or a bool, ``(None, why not)`` otherwise."""
    if isinstance(value, bool) or _is_numpy_bool(value):
        return float(value), None
    if not isinstance(value, numbers.Real):
        return None, f"{what} is a {type(value).__name__}, not a number"
    try:
        number = float(value)
    except (OverflowError, ValueError):
        return None, f"{what} {value!r} does not fit in a float"
    if not math.isfinite(number):
        return None, f"{what} is {number!r}, not a finite number"
    return number, None


def _as_markers(value: Any) -> tuple[dict[str, float], str | None]:
    if value is None:
        return {}, None
    if not isinstance(value, Mapping):
        return {}, f"markers is a {type(value).__name__}, not a dict of name -> number"
    markers: dict[str, float] = {}
    for key, raw in value.items():
        if not isinstance(key, str) or not key:
            return {}, f"marker name {key!r} is not a non-empty string"
        number, problem = _as_number(raw, f"marker {key!r}")
        if number is None:
            return {}, problem or f"marker {key!r} is not a number"
        markers[key] = number
    return markers, None


def _from_mapping(value: Mapping[str, Any]) -> Verdict:
    raw_reason = value.get("reason")
    reason = None if raw_reason is None else str(raw_reason)
    meta = {key: item for key, item in value.items() if key not in _VERDICT_FIELDS}
    if value.get("reward") is None:
        return _failed("missing_reward", "verdict has no 'reward'", reason, meta)
    reward, problem = _as_number(value["reward"], "reward")
    if problem is not None:
        return _failed("invalid_result", problem, reason, meta)
    markers, problem = _as_markers(value.get("markers"))
    if problem is not None:
        return _failed("invalid_result", problem, reason, meta)
    return Verdict("ok", reward, reason, markers, meta)


async def _await(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


def _judge_one(judge: Callable[[dict[str, Any]], Any], row: dict[str, Any]) -> Verdict:
    try:
        value = judge(row)
        if isinstance(value, Awaitable):
            import asyncio

            value = asyncio.run(_await(value))  # on its own loop: this runs on a thread with none
        return normalise_verdict(value)
    except JudgeOutputError as exc:  # a model judge's unreadable answer is a verdict of bad shape
        return _failed("invalid_result", f"{type(exc).__name__}: {exc}", meta=exc.meta)
    except TimeoutError as exc:  # the judge's own clock ran out (an HTTP read timeout, say)
        return _failed(
            "timeout", f"{type(exc).__name__}: {exc}", meta={"error_type": "TimeoutError"}
        )
    except BaseException as exc:  # a judge's failure is data about the row, never a crash
        return _failed(
            "error", f"{type(exc).__name__}: {exc}", meta={"error_type": type(exc).__name__}
        )


def _inline(judge: Callable[..., Any], timeout: float | None, concurrency: int) -> bool:
    """Whether the rows can be judged on this thread: one at a time, no clock, and no async judge
    meeting a running event loop (``asyncio.run`` refuses inside one, as in verifiers' rollouts)."""
    if timeout is not None or concurrency != 1:
        return False
    import inspect

    if not (
        inspect.iscoroutinefunction(judge) or inspect.iscoroutinefunction(type(judge).__call__)
    ):
        return True
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return True
    return False


def _judge_all(
    rows: list[Mapping[str, Any]],
    judge: Callable[[dict[str, Any]], Any],
    timeout: float | None,
    concurrency: int,
    *,
    copy_rows: bool = True,
) -> list[Verdict]:
    """Run the judge on every row, ``concurrency`` at a time; verdicts in row order."""

    def view(row: Mapping[str, Any]) -> dict[str, Any]:
        return copy_tree(dict(row)) if copy_rows else cast("dict[str, Any]", row)

    if _inline(judge, timeout, concurrency):
        return [_judge_one(judge, view(row)) for row in rows]
    verdicts: list[Verdict | None] = [None] * len(rows)
    finished: queue.SimpleQueue[tuple[int, Verdict]] = queue.SimpleQueue()
    running: dict[int, float] = {}
    next_index = 0

    def work(index: int, row: dict[str, Any]) -> None:
        finished.put((index, _judge_one(judge, row)))

    while next_index < len(rows) or running:
        while len(running) < concurrency and next_index < len(rows):
            running[next_index] = time.monotonic()
            threading.Thread(
                target=work,
                args=(next_index, view(rows[next_index])),
                name=f"whileai-judge-{next_index}",
                daemon=True,
            ).start()
            next_index += 1
        wait = (
            None
            if timeout is None
            else max(0.0, min(running.values()) + timeout - time.monotonic())
        )
        try:
            index, verdict = finished.get(timeout=wait)
        except queue.Empty:
            pass
        else:
            if index in running:
                del running[index]
                verdicts[index] = verdict
        if timeout is not None:
            now = time.monotonic()
            for index in [i for i, started in running.items() if now - started >= timeout]:
                del running[index]
                verdicts[index] = _failed(
                    "timeout",
                    f"judge did not return within {timeout:g} s",
                    meta={"timeout_s": float(timeout)},
                )
    return cast("list[Verdict]", verdicts)  # the loop ends only once every row has a verdict


def _graded(
    row: Mapping[str, Any], verdict: Verdict, name: str, version: str | None
) -> dict[str, Any]:
    return _with_columns(copy_tree(dict(row)), verdict, name, version)


def _with_columns(
    out: dict[str, Any], verdict: Verdict, name: str, version: str | None
) -> dict[str, Any]:
    """``out`` with the verdict's columns set, its own markers kept beside the judge's."""
    existing = out.get("markers")
    columns = judgment_columns(verdict, name, version)
    columns["markers"] = {
        **(dict(existing) if isinstance(existing, Mapping) else {}),
        **columns["markers"],
    }
    out.update(columns)
    return out
