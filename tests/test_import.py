"""``import whileai_env`` stays light: no heavy module, nothing beyond the facade and gymnasium.

How fast it is, is a figure, not a test: ``python scripts/bench/import_time.py`` prints it.
"""

import subprocess
import sys

HEAVY = (
    "torch",
    "transformers",
    "trl",
    "verifiers",
    "openai",
    "peft",
    "datasets",
    "accelerate",
    "ray",
    "jsonschema",
    "faker",
    "yaml",
)


def _loaded_after(code: str) -> set[str]:
    probe = f"import sys\n{code}\nprint(' '.join(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return set(out.split())


def test_import_loads_no_heavy_module():
    loaded = _loaded_after("import whileai_env")
    assert not [m for m in HEAVY if m in loaded]


def test_import_loads_only_the_facade_and_the_errors():
    ours = {m for m in _loaded_after("import whileai_env") if m.startswith("whileai_env")}
    assert ours == {"whileai_env", "whileai_env.errors"}


def test_trainers_package_imports_without_torch():
    code = "import sys, trainers; print(any(m in sys.modules for m in ('torch', 'trl')))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "False"
