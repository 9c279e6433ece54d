"""The environment-sampling loop: ``simulate()`` and what it returns."""

from whileai_env.data.jsonl import (
    RowWriter,
    read_rows,
)
from whileai_env.errors import OutputExistsError, ResumeMismatchError
from whileai_env.simulation.data import RowList, ScoredData, SimulationData
from whileai_env.simulation.run import simulate

__all__ = [
    "OutputExistsError",
    "ResumeMismatchError",
    "RowList",
    "RowWriter",
    "ScoredData",
    "SimulationData",
    "read_rows",
    "simulate",
]
