"""Textures retype an opener (typos, lowercase, terse …) and never touch a value the task needs."""

import pytest

from whileai_env.writer.texture import TEXTURES, apply_texture


@pytest.mark.parametrize("texture", TEXTURES)
def test_texture_never_alters_identifiers(texture):
    ids = ["ORD-4412", "dana.kim@northwind.io", "src/app/models.py", "BK-99812", "#6038"]
    text = (
        "Hello there! Please cancel the order ORD-4412, then email dana.kim@northwind.io about it. "
        "Also open src/app/models.py and booking BK-99812, ticket #6038. Thanks so much, really."
    )
    for key in range(25):
        out = apply_texture(text, texture, ids, key=key)
        for identifier in ids:
            assert identifier in out, (texture, out)


def test_textures_change_the_prose():
    text = "Hello there. Please cancel the order ORD-4412 today, it was really late."
    outs = {t: apply_texture(text, t, ["ORD-4412"], key=1) for t in TEXTURES}
    assert outs["standard"] == text
    assert (
        outs["lowercase"]
        == "hello there. please cancel the order ORD-4412 today, it was really late."
    )
    assert outs["no_punctuation"].count(".") == 0 and "," not in outs["no_punctuation"]
    assert len(outs["clipped"]) < len(text)
    assert outs["run_on"] != text
    with pytest.raises(ValueError, match="unknown texture"):
        apply_texture(text, "shouty")


def test_typo_texture_misspells_two_to_three_words_in_a_hundred():
    """The dose a person typing in a chat makes, counted word by word against the clean text over
    many seeds; a slip never touches a first letter or a protected id."""
    text = " ".join(
        ["Please cancel the order ORD-4412 today, it arrived damaged and the box was open."] * 8
    )
    clean = text.split(" ")
    slips = words = 0
    for key in range(400):
        typed = apply_texture(text, "typo", ["ORD-4412"], key=key).split(" ")
        assert len(typed) == len(clean) and typed.count("ORD-4412") == 8
        slips += sum(a != b for a, b in zip(typed, clean, strict=True))
        words += len(clean)
        assert all(a[0] == b[0] for a, b in zip(typed, clean, strict=True))
    assert 2.0 <= 100 * slips / words <= 3.0, 100 * slips / words
