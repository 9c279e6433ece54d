"""Every knob of the mock world in one frozen object, so a run's world is fully described by it.

``WorldOptions.from_dict`` refuses unknown keys (listing the known ones), so a typo in a config
file fails loudly instead of silently keeping a default.
"""

from __future__ import annotations

import calendar
import functools
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from whileai_env._util.hashing import canonical_json


@dataclass(frozen=True)
class WorldOptions:
    """The world's knobs. Defaults follow ``BEHAVIOR.md`` §3–4.

    - ``exists_share``: share of unknown ids that exist (by hash of the seed and the id).
    - ``search_hits``: (fewest, most) items a list or search returns.
    - ``stale_age_hours``: how old a ``stale`` record is when the rule gives no ``age_hours``.
    - ``clock``: the episode's "now" at call 0 (ISO 8601, UTC); ``seconds_per_call`` advances it.
    - ``currencies``: the pool one world's currency is drawn from (``currency`` fixes it).
    - ``amount_range``: (low, high) of money amounts, drawn log-uniformly.
    - ``timeout_s``, ``retry_after_s``, ``server_error_statuses``: defaults of the fault shapes
      when a rule's ``params`` do not say.
    - ``failure_share``: share of shell commands and test runs that fail (by hash).
    - ``reject_placeholders``: reject placeholder values (``<order id>``, ``x@example.com`` …).
    - ``check_formats``: reject strings that break a declared ``email``/``date``/``date-time`` format.

    >>> WorldOptions.from_dict({"exists_share": 0.5}).exists_share
    0.5
    """

    exists_share: float = 0.7
    search_hits: tuple[int, int] = (1, 6)
    stale_age_hours: float = 26.0
    clock: str = "2026-11-30T12:00:00Z"
    seconds_per_call: int = 4
    currencies: tuple[str, ...] = ("USD", "EUR", "GBP")
    currency: str | None = None
    amount_range: tuple[float, float] = (4.99, 2400.0)
    timeout_s: int = 30
    retry_after_s: int = 5
    server_error_statuses: tuple[int, ...] = (500, 502, 503)
    failure_share: float = 0.2
    reject_placeholders: bool = True
    check_formats: bool = True

    def __post_init__(self) -> None:
        for name in ("search_hits", "currencies", "amount_range", "server_error_statuses"):
            value = getattr(self, name)
            if isinstance(value, list):
                object.__setattr__(self, name, tuple(value))
        if not 0.0 <= self.exists_share <= 1.0:
            raise ValueError(f"exists_share must be between 0 and 1, got {self.exists_share}")
        if not 0.0 <= self.failure_share <= 1.0:
            raise ValueError(f"failure_share must be between 0 and 1, got {self.failure_share}")
        low, high = self.search_hits
        if not 0 <= low <= high:
            raise ValueError(
                f"search_hits must be (low, high) with 0 <= low <= high, got {self.search_hits}"
            )
        a_low, a_high = self.amount_range
        if not 0 < a_low <= a_high:
            raise ValueError(
                f"amount_range must be (low, high) with 0 < low <= high, got {self.amount_range}"
            )
        if not self.currencies and self.currency is None:
            raise ValueError("currencies must name at least one currency")
        if self.seconds_per_call < 0 or self.stale_age_hours <= 0:
            raise ValueError("seconds_per_call must be >= 0 and stale_age_hours > 0")
        if not self.server_error_statuses or any(
            not 500 <= s <= 599 for s in self.server_error_statuses
        ):
            raise ValueError(
                f"server_error_statuses must be 5xx codes, got {self.server_error_statuses}"
            )
        parse_clock(self.clock)

    @property
    def clock_epoch(self) -> int:
        """``clock`` as seconds since the epoch (UTC)."""
        return parse_clock(self.clock)

    @functools.cached_property
    def key(self) -> str:
        """The options as canonical JSON, computed once (worlds mix it into their hashes)."""
        return canonical_json(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (tuples as lists)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> WorldOptions:
        """Build from a dict; unknown keys raise ``ValueError`` naming the known ones."""
        if not data:
            return cls()
        known = [f.name for f in fields(cls)]
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise ValueError(
                f"unknown world option(s) {', '.join(unknown)}; known options: {', '.join(known)}"
            )
        return cls(**dict(data))


def parse_clock(text: str) -> int:
    """An ISO 8601 UTC time (``2026-11-30T12:00:00Z``) as seconds since the epoch; anything else
    (a list, a number, another format) is a ``ValueError`` naming it."""
    return _parse_clock(str(text).strip())


@functools.lru_cache(maxsize=64)
def _parse_clock(text: str) -> int:
    """:func:`parse_clock` of a string, cached: every rollout's world reads the same clock."""
    clean = text.rstrip("Zz")
    for fmt in ("%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d"):
        try:
            return calendar.timegm(time.strptime(clean, fmt))
        except ValueError:
            continue
    raise ValueError(
        f"clock must be an ISO 8601 UTC time such as 2026-11-30T12:00:00Z, got {text!r}"
    )


DEFAULT_OPTIONS = WorldOptions()


def coerce_options(options: WorldOptions | Mapping[str, Any] | None) -> WorldOptions:
    """``options`` as a ``WorldOptions`` (a dict goes through :meth:`WorldOptions.from_dict`)."""
    if options is None:
        return DEFAULT_OPTIONS
    if isinstance(options, WorldOptions):
        return options
    if isinstance(options, Mapping):
        return WorldOptions.from_dict(options)
    raise TypeError(f"options must be a WorldOptions or a dict, got {type(options).__name__}")
