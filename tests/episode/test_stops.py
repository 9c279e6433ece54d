import whileai_env as wenv
from tests.conftest import SPECS_DIR
from whileai_env.episode.stops import StopReason


def test_stop_reasons_are_plain_strings_on_rows():
    spec = wenv.load_spec(SPECS_DIR / "order-support.json")
    task = wenv.draw_tasks(spec, 1, seed=1, fault_rate=0.0)[0]
    episode = wenv.Episode(spec, task, max_turns=1)
    episode.step("Let me look into that.")
    row = episode.row()
    assert row["stop_reason"] in {s.value for s in StopReason}
    assert type(row["stop_reason"]) is str
    assert StopReason(row["stop_reason"]).truncated == row["truncated"]


def test_the_schema_documents_every_stop_reason():
    from whileai_env.data.rows import load_row_schema

    described = load_row_schema()["properties"]["stop_reason"]
    assert set(described["enum"]) == {s.value for s in StopReason} | {None}
