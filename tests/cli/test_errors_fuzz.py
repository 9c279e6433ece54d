"""Fuzz the ``simulate`` command line: any option soup ends in a summary or in one error line with
exit status 1 or 2, never a traceback (issue 13). Fixed seed, bounded examples."""

from __future__ import annotations

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import SPECS_DIR
from whileai_env.cli import main

ORDER = str(SPECS_DIR / "order-support.json")
_VALUES = st.one_of(
    st.sampled_from(
        [
            "0",
            "-1",
            "1",
            "2",
            "1e9",
            "nan",
            "inf",
            "abc",
            "",
            "explore",
            "rl",
            "x" * 300,
            "1.5",
            "--",
            "-q",
            "saturation",
        ]
    ),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=8),
)
_OPTIONS = [
    "--mode",
    "--budget",
    "--time-budget",
    "--situations",
    "--phrasings",
    "--repeats",
    "--fault-rate",
    "--seed",
    "--concurrency",
    "--until",
    "--agent",
    "--config",
    "-o",
]
_FLAGS = ["--resume", "--no-grade", "--grade", "--logprobs", "--bogus", "-z"]


@st.composite
def _argv(draw):
    args = []
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            args.append(draw(st.sampled_from(_FLAGS)))
        else:
            option = draw(st.sampled_from(_OPTIONS))
            value = draw(_VALUES)
            if option in ("-o", "--config"):
                value = draw(
                    st.sampled_from(
                        ["{tmp}/rows.jsonl", "{tmp}", "/proc/nope/x.jsonl", "{tmp}/k.yaml"]
                    )
                )
            elif option == "--agent":
                value = draw(
                    st.sampled_from(
                        ["seeded", "oracle", "silent", "gpt:x", "openai:", "hf:", "vllm:m@"]
                    )
                )
            args += [option, value]
    return args


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(_argv())
def test_any_option_soup_is_a_summary_or_one_error_line(tmp_path, monkeypatch, args):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    (tmp_path / "k.yaml").write_text("budget: [1\n")
    argv = [
        "simulate",
        ORDER,
        "-q",
        *(a.replace("{tmp}", str(tmp_path)) for a in args),
        "--budget",
        "2",
        "--time-budget",
        "20",
    ]
    result = CliRunner().invoke(main, argv)
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1, 2), (argv, result.output)
    if result.exit_code:
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), (argv, result.output)
    for stale in tmp_path.glob("rows.jsonl*"):
        stale.unlink()
