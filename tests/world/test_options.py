"""``WorldOptions``: every knob in one frozen object; unknown keys refused."""

from __future__ import annotations

import dataclasses

import pytest

import whileai_env as wenv
from whileai_env.world.options import WorldOptions


def test_defaults_follow_the_behaviour_page():
    options = WorldOptions()
    assert options.exists_share == 0.7 and options.search_hits == (1, 6)
    assert options.clock == "2026-11-30T12:00:00Z" and options.clock_epoch == 1796040000
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.exists_share = 0.5  # type: ignore[misc]


def test_from_dict_refuses_unknown_keys_and_lists_the_known_ones():
    with pytest.raises(
        ValueError, match=r"unknown world option\(s\) exist_share; known options: exists_share"
    ):
        WorldOptions.from_dict({"exist_share": 0.5})
    options = WorldOptions.from_dict({"search_hits": [2, 3], "currencies": ["JPY"]})
    assert options.search_hits == (2, 3) and options.currencies == ("JPY",)
    assert WorldOptions.from_dict(options.to_dict()) == options


@pytest.mark.parametrize(
    "bad",
    [
        {"exists_share": 1.5},
        {"search_hits": (5, 2)},
        {"amount_range": (0, 10)},
        {"clock": "yesterday"},
        {"clock": ["2026-11-30"]},  # unhashable: still a ValueError, not a TypeError
        {"seconds_per_call": -1},
        {"server_error_statuses": (404,)},
    ],
)
def test_bad_values_fail_at_construction(bad):
    with pytest.raises(ValueError):
        WorldOptions.from_dict(bad)


def test_a_world_takes_options_as_an_object_or_a_dict(order_tools_spec):
    world = wenv.World(order_tools_spec, options={"currency": "JPY", "exists_share": 1.0})
    assert world.call("get_order", {"order_id": "48213"})["currency"] == "JPY"
    with pytest.raises(ValueError, match="unknown world option"):
        wenv.World(order_tools_spec, options={"nope": 1})
    with pytest.raises(TypeError):
        wenv.World(order_tools_spec, options=3)
