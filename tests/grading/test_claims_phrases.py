"""Phrase families narrowed per text (grading/phrases.py): the same answers as the whole
alternation, and a long reply that holds none of a family's words skips the family."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from whileai_env.grading import claims
from whileai_env.grading.phrases import SHORT_TEXT, Phrases, requirements

FAMILIES = {
    "generic": claims.GENERIC_SUCCESS,
    "failure": claims.FAILURE_ACK,
    "missing": claims.MISSING_REPORT,
    "done": claims.DONE_ACK,
    "question": claims.QUESTION,
    "stale": claims.STALE_CAVEAT,
    "partial": claims.PARTIAL_CAVEAT,
    "hedging": claims.HEDGING,
    "boilerplate": claims.BOILERPLATE,
}
#: Words of the families and near misses, so generated texts hit, half-hit and miss.
WORDS = (
    "i we have has been is was not could cannot done all set successfully complete completed "
    "failed error timed out as of first only more results sorry think already no such found "
    "cancelled refunded sent nothing please tell me page - . ? ! ,"
)
NOISE = "```{x}y"


def _spans(matches) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group(0)) for m in matches]


def _long_texts():
    words = st.lists(st.sampled_from(WORDS.split()), max_size=40).map(" ".join)
    return st.tuples(words, words).map(
        lambda pair: pair[0] + " " + NOISE * (SHORT_TEXT // len(NOISE) + 1) + " " + pair[1]
    )


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(FAMILIES)), _long_texts())
def test_narrowed_family_answers_as_the_whole_alternation(name, text):
    phrases = Phrases(FAMILIES[name])
    whole = re.compile("(?:" + "|".join(FAMILIES[name]) + ")")
    assert _spans(phrases.finditer(text)) == _spans(whole.finditer(text))
    found = phrases.search(text)
    expected = whole.search(text)
    assert (found and found.span()) == (expected and expected.span())
    assert phrases.sub("~", text) == whole.sub("~", text)


_ATOMS = st.sampled_from(["is", "done", "not", "set", "all", " ", "-", "x"])


@st.composite
def _regexes(draw) -> str:
    """Small regexes over the words: literals, optional and alternative groups, classes, \\b."""
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["lit", "alt", "opt", "class", "b", "plus"]))
        if kind == "lit":
            parts.append(draw(_ATOMS))
        elif kind == "alt":
            parts.append("(?:" + "|".join(draw(st.lists(_ATOMS, min_size=1, max_size=3))) + ")")
        elif kind == "opt":
            parts.append("(?:" + draw(_ATOMS) + ")?")
        elif kind == "class":
            parts.append("[dn]")
        elif kind == "b":
            parts.append(r"\b")
        else:
            parts.append(draw(_ATOMS) + "+")
    return "".join(parts)


@settings(max_examples=300, deadline=None)
@given(st.lists(_regexes(), min_size=1, max_size=4), st.lists(_ATOMS, max_size=30))
def test_requirements_hold_in_every_match(alternatives, words):
    text = " ".join(words)
    for alternative in alternatives:
        for match in re.finditer(alternative, text):
            for clause in requirements(alternative):
                assert any(literal in match.group(0) for literal in clause), (alternative, clause)
    padded = text + " " + NOISE * (SHORT_TEXT // len(NOISE) + 1)
    whole = re.compile("(?:" + "|".join(alternatives) + ")")
    assert _spans(Phrases(tuple(alternatives)).finditer(padded)) == _spans(whole.finditer(padded))


def test_requirements_read_groups_alternations_and_quantifiers():
    assert requirements(r"\bsuccessfully\b") == [("successfully",)]
    assert requirements(r"\b(?:was|has been) (?:now )?(?:complete|finali[sz]ed)\b") == [
        ("was", "has been"),
        ("complete", "finali"),
    ]
    assert requirements(r"\b(?:is|has been) done") == [(" done",)]  # "is" is too short
    assert requirements(r"(?=done)x") == []  # a lookahead is not read
    assert requirements(r"(?i)done") == []  # nor a pattern whose case is ignored
    assert requirements(r"dones?") == [("done",)]


def test_long_noise_reply_skips_every_family():
    noise = NOISE * 30_000
    assert claims._GENERIC_SUCCESS.for_text(claims.normalise(noise)) is None
    assert claims._FAILURE_ACK.for_text(noise) is None
    assert claims.success_claim(noise) is None


def test_long_reply_keeps_its_claim_anywhere():
    noise = NOISE * 30_000
    assert claims.success_claim(noise + " Done - I've cancelled order 4412.") == "i have cancelled"
    assert claims.failure_acknowledged("The lookup timed out. " + noise) == "timed out"
    assert claims.style_hits(noise + " Hope this helps!") == {"boilerplate": "hope this helps"}
