import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from whileai_env.scenarios.diversity import DIM, embed, most_novel


@given(st.text(max_size=200))
@settings(max_examples=60, derandomize=True)
def test_embeddings_are_unit_norm_or_zero_and_stable(text):
    vec = embed(text)
    assert vec.shape == (DIM,)
    norm = float(np.linalg.norm(vec))
    assert abs(norm - 1.0) < 1e-5 or norm == 0.0
    assert np.array_equal(vec, embed(text))


def test_case_and_punctuation_do_not_matter_but_words_do():
    assert np.allclose(embed("Cancel my ORDER!"), embed("cancel my order"))
    assert float(embed("cancel my order") @ embed("where is my refund")) < 0.5


def test_most_novel_picks_the_candidate_least_like_the_recent_batch():
    recent = np.stack([embed("cancel order 1"), embed("cancel order 2")])
    candidates = [
        embed("cancel order 3"),
        embed("what is the weather in Paris"),
        embed("cancel my order 4"),
    ]
    assert most_novel(candidates, recent, noise=0.0) == 1
    assert most_novel(candidates, np.zeros((0, DIM)), noise=0.0) == 0


def test_the_noise_is_seeded_by_key():
    recent = np.stack([embed("a b c")])
    candidates = [embed("x y"), embed("p q")]
    picks = {most_novel(candidates, recent, noise=5.0, key=k) for k in range(20)}
    assert picks == {0, 1}
    assert most_novel(candidates, recent, noise=5.0, key=7) == most_novel(
        candidates, recent, noise=5.0, key=7
    )
