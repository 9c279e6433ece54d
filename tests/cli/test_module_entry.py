"""``python -m whileai_env`` is the ``whileai-env`` command line."""

import subprocess
import sys
from pathlib import Path

SPEC = Path(__file__).resolve().parents[2] / "configs" / "specs" / "order-support.json"


def test_python_dash_m_runs_the_command_line_under_its_own_name():
    done = subprocess.run(
        [sys.executable, "-m", "whileai_env", "check-spec", str(SPEC)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "get_order" in done.stdout
    usage = subprocess.run(
        [sys.executable, "-m", "whileai_env", "no-such-verb"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert usage.returncode == 2
    assert "no-such-verb" in usage.stderr and "whileai-env --help" in usage.stderr
