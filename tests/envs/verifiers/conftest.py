"""The ``vf03_*`` modules need verifiers 0.3 and run in their own venv (scripts/test-verifiers.sh).

The main suite collects doctests from every module it walks; these are not its to import.
"""

import importlib.util

if importlib.util.find_spec("verifiers") is None:
    collect_ignore_glob = ["vf03_*.py"]
