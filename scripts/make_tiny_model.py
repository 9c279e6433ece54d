"""Build the tests' tiny Qwen2 model where the tiny configs load it (``runs/models/tiny``).

The checkpoint is ``tests/support/tiny_model.build_tiny_model`` (a byte-level BPE tokenizer and
a 2-layer, 64-wide Qwen2, from a fixed seed) made ready for TRL's tool loop: TRL's Qwen2.5 chat
template saved with the tokenizer and a 32k context (tool schemas and results in bytes are long).

    .venv/bin/python scripts/make_tiny_model.py [runs/models/tiny]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.tiny_model import build_tiny_model  # noqa: E402
from trainers.models import prepare_checkpoint  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(ROOT / "runs" / "models" / "tiny"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    path = build_tiny_model(args.path, seed=args.seed)
    print(prepare_checkpoint(str(path), template="qwen2_5", max_positions=32768))


if __name__ == "__main__":
    main()
