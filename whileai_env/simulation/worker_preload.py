"""What the process backend's forkserver loads before it forks a worker: the modules a worker
plays with and the value pools (:func:`whileai_env.world.pools.warm`).

Every worker forked from the forkserver starts with them in memory. Without this module each
worker imported them and built the pools itself over its first rows: about 0.3 s of CPU per
worker (four times a row's cost for its first hundred rows on a 14-tool spec), paid again by every
worker and every replacement for a dead one. Importing this module is what warms the process, so
nothing else imports it.
"""

import whileai_env.data.rows  # each row's export, in the worker
import whileai_env.simulation.process_backend  # the worker's entry point
import whileai_env.world.mock  # the world a rollout plays in
import whileai_env.world.results  # noqa: F401  (what the world answers with)
from whileai_env.world.pools import warm

warm()
