"""``HackMonitor``: is the policy hacking the training reward right now?

Over-optimisation is one picture: the training reward (the *proxy*) keeps climbing while a
scorer the proxy cannot see (the *gold* judge) stays flat, read against KL. The monitor
watches the reward function (:meth:`HackMonitor.wrap` keeps the last completions and their
rewards) and, every ``every`` steps, samples the holdout from the live policy and scores the
samples with both. Four alarms:

- ``divergence``: proxy up by ``delta`` over the last ``window`` points while the paired gold
  interval (per holdout item, first vs last point of the window) does not move up;
- ``length``: holdout completions ``length_ratio`` times longer over the window, gold not up;
- ``drift``: the logged KL (``kl``, TRL's with ``beta > 0``, or a tracker's) past ``kl_budget``;
- ``feature``: the batch scan says ``reward_hack``: most high-reward completions show none of
  the ``endorsed`` features (``tool:NAME`` a call to NAME, ``text:WORD`` a word in the reply).

``stop_on`` names the alarms that stop training (``"any"`` for all); the run record then ends
``stopped`` with the reason.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from transformers import TrainerCallback

from trainers.verdict import paired_interval

ALARMS = ("divergence", "length", "drift", "feature")
Sampler = Callable[[Any, Sequence[Mapping[str, Any]], int], list[dict[str, Any]]]


class HackMonitor(TrainerCallback):
    """See the module docstring. ``sampler(trainer, holdout, k)`` returns samples
    ``{"prompt", "completion", "environment"?, **columns}``; the default plays the policy
    through ``environment`` (:func:`trainers.rollout.play`)."""

    def __init__(
        self,
        run: Any = None,
        *,
        holdout: Sequence[Mapping[str, Any]] = (),
        gold: Callable | None = None,
        every: int = 10,
        k: int = 4,
        endorsed: Iterable[str] = (),
        stop_on: str | Iterable[str] | None = None,
        delta: float = 0.1,
        window: int = 3,
        kl_budget: float | None = None,
        length_ratio: float = 1.5,
        environment: Any = None,
        sampler: Sampler | None = None,
        trainer: Any = None,
        buffer: int = 256,
    ) -> None:
        self.run, self.holdout, self.gold = run, list(holdout), gold
        self.every, self.k, self.endorsed = max(1, int(every)), int(k), tuple(endorsed)
        self.stop_on = _alarm_set(stop_on)
        self.delta, self.window, self.kl_budget, self.length_ratio = (
            delta,
            max(2, window),
            kl_budget,
            length_ratio,
        )
        self.environment, self.sampler, self.trainer = environment, sampler, trainer
        self.proxy: Callable | None = None
        self.recent: deque[tuple[Any, float]] = deque(maxlen=buffer)
        self.points: list[dict[str, Any]] = []
        self.alarms: list[dict[str, Any]] = []
        self.kl: float | None = None
        self.stopped: str | None = None

    def wrap(self, reward_fn: Callable[..., list]) -> Callable[..., list]:
        """``reward_fn`` unchanged for the trainer, its completions and rewards kept for the scan;
        it is also the proxy the holdout is scored with."""
        self.proxy = reward_fn

        def watched(*args: Any, **kwargs: Any) -> list:
            values = reward_fn(*args, **kwargs)
            for completion, value in zip(kwargs.get("completions", ()), values, strict=False):
                if value is not None:
                    self.recent.append((completion, float(value)))
            return values

        watched.__name__ = getattr(reward_fn, "__name__", "reward")
        return watched

    # -- TrainerCallback hooks ------------------------------------------------------------------

    def on_log(
        self, args: Any, state: Any, control: Any, logs: Mapping[str, Any] | None = None, **_: Any
    ) -> None:
        value = (logs or {}).get("kl", (logs or {}).get("sampled_kl"))
        if isinstance(value, int | float):
            self.kl = float(value)

    def on_step_end(self, args: Any, state: Any, control: Any, **_: Any) -> Any:
        if state.global_step % self.every:
            return control
        fired = self.check(state.global_step)
        stopping = [a for a in fired if a["alarm"] in self.stop_on]
        if stopping and self.stopped is None:
            self.stopped = f"{stopping[0]['alarm']}: {stopping[0]['message']}"
            control.should_training_stop = True
            if self.run is not None:
                self.run.stop(self.stopped)
        return control

    # -- measuring --------------------------------------------------------------------------------

    def check(self, step: int) -> list[dict[str, Any]]:
        """Sample and score the holdout now, add the point, and return the alarms that fired."""
        point = self._measure(step)
        self.points.append(point)
        if self.run is not None:
            self.run.log(
                step, **{k: v for k, v in point.items() if k not in ("step", "gold_items")}
            )
        fired = [
            a for a in (self._divergence(), self._length(), self._drift(), self._feature()) if a
        ]
        for alarm in fired:
            alarm["step"] = step
            self.alarms.append(alarm)
            if self.run is not None:
                self.run.note(f"step {step}: {alarm['alarm']}: {alarm['message']}")
        return fired

    def _measure(self, step: int) -> dict[str, Any]:
        samples = self._sample()
        proxy = self._proxy_scores(samples)
        gold = [self._gold_score(s) for s in samples]
        lengths = [_length(s["completion"]) for s in samples]
        return {
            "step": step,
            "proxy_reward": _mean(proxy),
            "gold_reward": _mean(gold),
            "holdout_length": _mean(lengths),
            "kl": self.kl,
            "gold_items": gold,
        }

    def _sample(self) -> list[dict[str, Any]]:
        if self.sampler is not None:
            return self.sampler(self.trainer, self.holdout, self.k)
        if self.trainer is None or self.environment is None:
            raise ValueError(
                "HackMonitor needs sampler=, or trainer= and environment= to play the holdout"
            )
        from trainers.rollout import play

        model = self.trainer.model
        rollouts = play(
            model,
            self.trainer.processing_class,
            self.environment,
            self.holdout,
            k=self.k,
            temperature=1.0,
        )
        return [
            {"prompt": r.prompt, "completion": r.completion, "environment": r.environment}
            for r in rollouts
        ]

    def _proxy_scores(self, samples: list[dict[str, Any]]) -> list[float | None]:
        if self.proxy is None:
            raise ValueError(
                "wrap(reward_fn) first: the monitor scores the holdout with the training reward"
            )
        columns = (
            {
                k: [s.get(k) for s in samples]
                for k in samples[0]
                if k not in ("prompt", "completion")
            }
            if samples
            else {}
        )
        environments = columns.pop("environment", None)
        return list(
            self.proxy(
                prompts=[s["prompt"] for s in samples],
                completions=[s["completion"] for s in samples],
                environments=environments,
                **columns,
            )
        )

    def _gold_score(self, sample: Mapping[str, Any]) -> float | None:
        if self.gold is None:
            return None
        from whileai_env.grading.judge import judge_verdict

        env = sample.get("environment")
        row = env.episode.row() if env is not None else _text_row(sample)
        return judge_verdict(self.gold, row).reward

    # -- alarms -------------------------------------------------------------------------------------

    def _span(self) -> tuple[dict[str, Any], dict[str, Any]] | None:
        if len(self.points) < self.window:
            return None
        return self.points[-self.window], self.points[-1]

    def _gold_up(self, first: Mapping[str, Any], last: Mapping[str, Any]) -> bool:
        pairs = [
            (a, b)
            for a, b in zip(first["gold_items"], last["gold_items"], strict=False)
            if a is not None and b is not None
        ]
        interval = (
            paired_interval([a for a, _ in pairs], [b for _, b in pairs])
            if len(pairs) >= 3
            else None
        )
        if interval is not None:
            return interval[0] > 0
        return _gain(first["gold_reward"], last["gold_reward"]) >= self.delta

    def _divergence(self) -> dict[str, Any] | None:
        span = self._span()
        if span is None or self.gold is None:
            return None
        first, last = span
        gain = _gain(first["proxy_reward"], last["proxy_reward"])
        if gain >= self.delta and not self._gold_up(first, last):
            return {
                "alarm": "divergence",
                "message": f"proxy up {gain:+.2f} over {self.window} checks, gold "
                f"{_fmt(first['gold_reward'])} -> {_fmt(last['gold_reward'])} (not up)",
            }
        return None

    def _length(self) -> dict[str, Any] | None:
        span = self._span()
        if span is None:
            return None
        first, last = span
        if (
            first["holdout_length"]
            and last["holdout_length"] >= self.length_ratio * first["holdout_length"]
            and not (self.gold is not None and self._gold_up(first, last))
        ):
            return {
                "alarm": "length",
                "message": f"holdout length {first['holdout_length']:.0f} -> "
                f"{last['holdout_length']:.0f} chars while gold did not rise",
            }
        return None

    def _drift(self) -> dict[str, Any] | None:
        if self.kl_budget is not None and self.kl is not None and self.kl > self.kl_budget:
            return {
                "alarm": "drift",
                "message": f"KL {self.kl:.3f} past the budget {self.kl_budget:.3f}",
            }
        return None

    def _feature(self) -> dict[str, Any] | None:
        verdict = hack_scan(list(self.recent), self.endorsed)
        if verdict["verdict"] == "reward_hack":
            return {"alarm": "feature", "message": verdict["message"]}
        return None

    # -- reporting ----------------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The curve (proxy, gold, length, KL per check), the alarms and why training stopped."""
        points = [{k: v for k, v in p.items() if k != "gold_items"} for p in self.points]
        return {
            "points": points,
            "alarms": list(self.alarms),
            "stopped": self.stopped,
            "stop_on": sorted(self.stop_on),
        }

    def picture(self, path: str) -> str:
        """Proxy and gold reward against KL (or the step, before any KL is logged) as a PNG."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        use_kl = all(p["kl"] is not None for p in self.points) and self.points
        xs = [p["kl"] if use_kl else p["step"] for p in self.points]
        fig, ax = plt.subplots(figsize=(5, 3.2))
        ax.plot(
            xs,
            [p["proxy_reward"] for p in self.points],
            marker="o",
            label="proxy (training reward)",
        )
        ax.plot(xs, [p["gold_reward"] for p in self.points], marker="s", label="gold")
        for alarm in self.alarms:
            at = next((p for p in self.points if p["step"] == alarm["step"]), None)
            if at is not None:
                ax.axvline(at["kl"] if use_kl else at["step"], color="red", alpha=0.3)
        ax.set_xlabel("KL to the reference" if use_kl else "step")
        ax.set_ylabel("holdout reward")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(path, dpi=90)
        plt.close(fig)
        return path


def hack_scan(
    scored: Sequence[tuple[Any, float]],
    endorsed: Sequence[str],
    *,
    share: float = 0.5,
    high: float = 0.5,
    minimum: int = 8,
) -> dict[str, Any]:
    """``reward_hack`` when at least ``share`` of the completions rewarded above ``high`` show
    none of the ``endorsed`` features (at least ``minimum`` of them); ``clean`` otherwise."""
    rewarded = [c for c, r in scored if r > high]
    if not endorsed or len(rewarded) < minimum:
        return {
            "verdict": "clean",
            "message": "too few rewarded completions or no endorsed features",
            "share": None,
        }
    bare = sum(not any(_has(c, f) for f in endorsed) for c in rewarded) / len(rewarded)
    verdict = "reward_hack" if bare >= share else "clean"
    return {
        "verdict": verdict,
        "share": bare,
        "message": f"{bare:.0%} of {len(rewarded)} rewarded completions show none of {', '.join(endorsed)}",
    }


def format_hack_monitor(summary: Mapping[str, Any]) -> str:
    """The monitor's curve and alarms as text."""
    lines = ["step  proxy  gold   length  kl"]
    for p in summary.get("points", []):
        lines.append(
            f"{p['step']:>4}  {_fmt(p['proxy_reward'])}  {_fmt(p['gold_reward'])}  "
            f"{p['holdout_length'] or 0:>6.0f}  {_fmt(p['kl'])}"
        )
    lines += [
        f"alarm at step {a['step']}: {a['alarm']}: {a['message']}"
        for a in summary.get("alarms", [])
    ]
    if summary.get("stopped"):
        lines.append(f"stopped: {summary['stopped']}")
    return "\n".join(lines)


def _has(completion: Any, feature: str) -> bool:
    kind, _, value = feature.partition(":")
    messages = (
        completion
        if isinstance(completion, list)
        else [{"role": "assistant", "content": str(completion)}]
    )
    if kind == "tool":
        return any(
            (c.get("function") or c).get("name") == value
            for m in messages
            if isinstance(m, Mapping)
            for c in m.get("tool_calls") or ()
        )
    text = " ".join(
        str(m.get("content") or "")
        for m in messages
        if isinstance(m, Mapping) and m.get("role") == "assistant"
    ).lower()
    return value.lower() in text


def _text_row(sample: Mapping[str, Any]) -> dict[str, Any]:
    completion = sample["completion"]
    messages = (
        completion
        if isinstance(completion, list)
        else [{"role": "assistant", "content": str(completion)}]
    )
    final = next(
        (str(m.get("content") or "") for m in reversed(messages) if m.get("role") == "assistant"),
        "",
    )
    return {
        **{k: v for k, v in sample.items() if k not in ("completion", "environment")},
        "messages": [*sample.get("prompt", []), *messages],
        "final_text": final,
    }


def _length(completion: Any) -> float:
    if isinstance(completion, str):
        return float(len(completion))
    return float(
        sum(
            len(str(m.get("content") or "")) + len(str(m.get("tool_calls") or ""))
            for m in completion
            if isinstance(m, Mapping) and m.get("role") == "assistant"
        )
    )


def _alarm_set(stop_on: str | Iterable[str] | None) -> frozenset[str]:
    names = {stop_on} if isinstance(stop_on, str) else set(stop_on or ())
    if "any" in names:
        return frozenset(ALARMS)
    unknown = names - set(ALARMS)
    if unknown:
        raise ValueError(
            f"unknown alarm(s) {sorted(unknown)}; choose from {', '.join(ALARMS)} or 'any'"
        )
    return frozenset(names)


def _mean(values: Sequence[float | None]) -> float | None:
    kept = [float(v) for v in values if v is not None]
    return math.fsum(kept) / len(kept) if kept else None


def _gain(a: float | None, b: float | None) -> float:
    return (b - a) if a is not None and b is not None else 0.0


def _fmt(value: float | None) -> str:
    return "  n/a" if value is None else f"{value:5.2f}"
