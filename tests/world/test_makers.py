"""Concept makers: a person is made only for a person's details."""

import pytest

from whileai_env.world import makers
from whileai_env.world.concepts import field
from whileai_env.world.makers import Scope, make_strings


@pytest.fixture
def personas(monkeypatch):
    made = []
    real = makers.persona

    def counting(seed):
        made.append(seed)
        return real(seed)

    monkeypatch.setattr(makers, "persona", counting)
    return made


def test_a_concept_that_is_no_person_makes_no_persona(personas):
    values = make_strings("flight_number", field("flight_number", {}), Scope(seed=3, now=0))
    assert values and not personas


def test_a_person_concept_shows_the_scopes_person(personas):
    scope = Scope(seed=3, now=0)
    (email,) = make_strings("email", field("email", {}), scope)
    assert personas == [scope.person_seed]
    assert email == makers.persona(scope.person_seed).email


@pytest.mark.parametrize("example", ["1h 30m", "45s", "2h 05m", "-30m", "10:30", "09:05:00"])
def test_a_value_like_a_duration_or_a_clock_time_keeps_minutes_and_seconds_under_sixty(example):
    import random
    import re

    r = random.Random(7)
    for _ in range(200):
        made = makers.like(example, r, now=0, when="past")
        for number in re.findall(r"(\d+)[ms]\b", made):
            assert int(number) < 60, (example, made)
        if ":" in example:
            hour, *rest = (int(p) for p in made.split(":"))
            assert hour < 24 and all(p < 60 for p in rest) and len(rest) == example.count(":")


def test_a_format_an_example_shows_gets_its_slot_filled_in():
    import random

    r = random.Random(3)
    for _ in range(50):
        made = makers.like("task:{id}", r, now=0, when="past")
        assert made.startswith("task:") and made[5:].isdigit(), made
        path = makers.like("projects/{project_id}/items", r, now=0, when="past")
        assert path.startswith("projects/") and path.endswith("/items") and "{" not in path
