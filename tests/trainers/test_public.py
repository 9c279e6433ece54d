"""``trainers``' public names resolve, and importing the package loads no training library."""

from __future__ import annotations

import subprocess
import sys

import trainers


def test_every_public_name_resolves() -> None:
    for name in trainers.__all__:
        assert getattr(trainers, name) is not None, name


def test_import_trainers_stays_light() -> None:
    code = (
        "import sys, trainers; heavy = [m for m in ('torch', 'trl', 'transformers', 'peft', 'datasets') "
        "if m in sys.modules]; print(heavy); sys.exit(bool(heavy))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
