"""The ``vf03_*``/``vf04_*`` modules need verifiers 0.3 or 0.4 and run in their own venvs
(scripts/test-verifiers.sh). The main suite collects doctests from every module it walks; each
venv skips collecting the modules of the generation it does not have.
"""

from importlib import metadata


def _generation() -> str | None:
    try:
        version = metadata.version("verifiers")
    except metadata.PackageNotFoundError:
        return None
    return "04" if tuple(int(p) for p in version.split(".")[:2]) >= (0, 4) else "03"


collect_ignore_glob = [f"vf{g}_*.py" for g in ("03", "04") if g != _generation()]
