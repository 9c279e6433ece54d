"""The draw's draft memo: each candidate is drafted once per situation, and the tasks drawn are
exactly those a draw that drafts every candidate afresh would give."""

import whileai_env as wenv
from whileai_env.scenarios import draw


def _fresh_get(self, i):
    made = draw._Draft.of(
        self.cells[i], self.spec, seed=self.seed, situation=int(self.visits[i]), phrasing=0
    )
    return made, draw.embed(made.opener)


def test_memoised_drafts_draw_the_tasks_fresh_drafts_draw(order_spec, monkeypatch):
    memoised = [t.to_dict() for t in wenv.draw_tasks(order_spec, 80, mode="sft", seed=3)]
    monkeypatch.setattr(draw._Drafts, "get", _fresh_get)
    fresh = [t.to_dict() for t in wenv.draw_tasks(order_spec, 80, mode="sft", seed=3)]
    assert memoised == fresh


def test_a_candidate_is_drafted_once_per_situation(order_spec, monkeypatch):
    made = []
    original = draw._Draft.of.__func__

    def counting(cls, cell, spec, **kw):
        made.append((cell.scenario_id, kw["situation"]))
        return original(cls, cell, spec, **kw)

    monkeypatch.setattr(draw._Draft, "of", classmethod(counting))
    wenv.draw_tasks(order_spec, 200, seed=0)
    assert len(made) == len(set(made))
    assert len(made) < 3 * 200


def test_the_draws_choices_are_random_choices():
    import numpy as np

    from whileai_env._util.hashing import rng

    g = np.random.default_rng(0)
    for trial in range(300):
        n, k = int(g.integers(1, 2000)), int(g.integers(1, 4))
        population = g.permutation(4000)[:n]
        weights = g.random(n) * g.choice([1e-6, 1.0, 1e6]) + 1e-12
        expected = rng("t", trial).choices(population.tolist(), weights=weights.tolist(), k=k)
        assert draw._choices(rng("t", trial), population, weights, k) == expected
