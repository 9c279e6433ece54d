"""``python -m whileai_env``: the ``whileai-env`` command line, for an environment whose scripts
directory is not on ``PATH``.

    python -m whileai_env check-spec configs/specs/airline.yaml
"""

from whileai_env.cli import main

main(prog_name="whileai-env")
