"""``python -m whileai_env.cli``."""

from whileai_env.cli import main

main(prog_name="whileai-env")
