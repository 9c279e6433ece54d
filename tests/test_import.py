import subprocess
import sys

HEAVY = ("torch", "transformers", "trl", "verifiers", "openai", "peft", "datasets", "accelerate", "ray")


def test_import_is_light_and_fast():
    code = (
        "import sys, time\n"
        "t = time.perf_counter()\n"
        "import whileai_env\n"
        "elapsed = time.perf_counter() - t\n"
        f"heavy = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "print(elapsed, ','.join(heavy))\n"
    )
    best = None
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
        heavy = out[1] if len(out) > 1 else ""
        assert heavy == "", f"import whileai_env pulled in {heavy}"
        best = min(best or 9.0, float(out[0]))
    assert best < 0.3, f"import whileai_env took {best:.3f}s"


def test_trainers_package_imports_without_torch():
    code = "import sys, trainers; print(any(m in sys.modules for m in ('torch', 'trl')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"
