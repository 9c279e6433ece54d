"""The text spaces share their charset tables but never their random state."""

from whileai_env.envs.spaces import AgentAction, AnyText


def test_spaces_share_charset_tables_and_keep_their_own_rng():
    a, b = AgentAction(max_length=64, seed=1), AnyText(max_length=64, seed=2)
    assert a._char_list is b._char_list and a._char_index is b._char_index
    samples_a = [a.sample() for _ in range(5)]
    samples_b = [b.sample() for _ in range(5)]
    assert samples_a != samples_b
    assert all(a.contains(s) and b.contains(s) for s in samples_a + samples_b)
    assert AgentAction(max_length=64, seed=1).sample() == samples_a[0]
