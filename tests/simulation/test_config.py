import pytest

import whileai_env as wenv
from tests.conftest import SPECS_DIR
from whileai_env.errors import ConfigError
from whileai_env.simulation.config import SimulationConfig

ORDER = SPECS_DIR / "order-support.json"
ROOT = SPECS_DIR.parents[1]


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"budget": 0}, "budget must be a positive"),
        ({"mode": "train"}, "mode must be one of"),
        ({"until": "forever"}, "until must be"),
        ({"fault_rate": 1.5}, "fault_rate must be between 0 and 1"),
        ({"reproducible": True, "time_budget": 5}, "reproducible=True needs the clock off"),
        ({"resume": True}, "resume=True needs output="),
        ({"repeats": 0}, "repeats must be a positive integer"),
        ({"probe": 0}, "probe must be a positive integer"),
    ],
)
def test_bad_knobs_say_what_is_wrong(bad, message):
    with pytest.raises(ConfigError, match=message):
        SimulationConfig(**bad)


def test_keywords_build_the_same_config_as_the_object():
    by_keywords = wenv.simulate("oracle", spec=ORDER, budget=6, mode="sft", seed=3, quiet=True)
    by_config = wenv.simulate(
        "oracle", spec=ORDER, config=SimulationConfig(budget=6, mode="sft", seed=3, quiet=True)
    )
    assert [r["task_id"] for r in by_keywords.rows] == [r["task_id"] for r in by_config.rows]


def test_keywords_win_over_the_config():
    data = wenv.simulate("oracle", spec=ORDER, config={"budget": 50, "quiet": True}, budget=4)
    assert len(data.rows) == 4


@pytest.mark.parametrize(
    "path", sorted((ROOT / "configs" / "simulate").glob("*.yaml")), ids=lambda p: p.name
)
def test_shipped_configs_load(path):
    config = SimulationConfig.from_file(path)
    assert config.budget >= 1


def test_a_config_file_with_an_unknown_key_names_it_and_the_file(tmp_path):
    path = tmp_path / "run.yaml"
    path.write_text("mode: rl\nbudgt: 3\n")
    with pytest.raises(ConfigError, match=r"run\.yaml: unknown key 'budgt'"):
        SimulationConfig.from_file(path)
    path.write_text("mode: [rl\n")
    with pytest.raises(ConfigError, match=r"run\.yaml:\d+: not valid YAML"):
        SimulationConfig.from_file(path)
