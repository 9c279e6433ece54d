"""``whileai-env simulate --workers N`` writes the rows one process writes; a bad count exits 2."""

from click.testing import CliRunner

from tests.corpus import CORPUS_DIR
from whileai_env.cli import main

SPEC = str(CORPUS_DIR / "tau2-airline.json")


def test_workers_write_the_rows_one_process_writes(tmp_path):
    for name, extra in (("one", []), ("two", ["--workers", "2"])):
        result = CliRunner().invoke(
            main, ["simulate", SPEC, "--budget", "20", "-o", str(tmp_path / name), "-q", *extra]
        )
        assert result.exit_code == 0, result.output
    assert (tmp_path / "two").read_bytes() == (tmp_path / "one").read_bytes()


def test_a_bad_worker_count_is_one_line_and_exit_2():
    result = CliRunner().invoke(main, ["simulate", SPEC, "--workers", "0", "-q"])
    assert result.exit_code == 2
    assert result.output.strip() == "error: workers must be a positive integer, got 0"
