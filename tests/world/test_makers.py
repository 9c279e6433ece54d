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
