"""Run untrusted Python against hidden tests in a subprocess with wall-time, memory, CPU, process
and network limits.

The limits are the kernel's, set with the standard ``resource`` module inside the child before
the candidate's code runs (see :mod:`whileai_env.judges._sandbox_child`): ``RLIMIT_AS`` (memory),
``RLIMIT_CPU`` (CPU seconds), ``RLIMIT_NPROC`` (a fork bomb), ``RLIMIT_FSIZE`` (output), no core
dumps. The kernel exempts root from ``RLIMIT_NPROC``, so a root caller runs the child through
util-linux's ``setpriv`` with the real user ``nobody`` and no capabilities (the process limit then
binds); where ``setpriv`` is missing a root caller's fork bomb is stopped by the wall clock only.
Wall time is enforced here: the child runs in its own session and the whole process group
is killed with ``SIGKILL`` at the deadline and again when it returns, so no forked child outlives
the check.

Network, in two layers. Where util-linux's ``unshare`` can make a network namespace (root, or an
unprivileged user namespace), the child runs in one with no interfaces up: no connection of any
kind, from Python, C or a subprocess, can leave. Everywhere, the child also installs an audit hook
(PEP 578) refusing every socket; that covers Python code on systems without namespaces (macOS, a
container forbidding ``unshare``), though not a C extension opening its own socket, which is why
the namespace comes first. No seccomp or container runtime is used: neither is a Python
dependency, and both need privileges a training box may not grant.

This is a guard against runaway or careless code, not a jail for an adversary: files the
``nobody`` user (or the unprivileged caller) can read remain readable.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_CHILD = Path(__file__).with_name("_sandbox_child.py")
_TAIL = 4000


@dataclass(frozen=True)
class Limits:
    """What one run may use: wall seconds, address space in MiB, CPU seconds, extra processes
    beyond those the user already runs, and MiB of output per file."""

    timeout_s: float = 5.0
    memory_mb: int = 512
    cpu_s: int | None = None
    max_processes: int = 8
    output_mb: int = 1

    def child_config(self) -> dict[str, int]:
        cpu = self.cpu_s if self.cpu_s is not None else max(1, int(self.timeout_s) + 1)
        return {
            "memory_mb": self.memory_mb,
            "cpu_s": cpu,
            "max_processes": self.max_processes,
            "output_mb": self.output_mb,
        }


@dataclass(frozen=True)
class Outcome:
    """One sandboxed run: tests ``passed`` of ``total``, or ``stopped`` (``timeout``, ``memory``,
    ``cpu``, ``output``, ``exited``, ``signal``) when no result came back."""

    passed: int
    total: int
    stopped: str | None
    failures: list[str] = field(default_factory=list)
    stderr: str = ""
    wall_s: float = 0.0
    network: str = "audit hook"


def run_tests(solution: str, tests: list[str], limits: Limits) -> Outcome:
    """Run ``solution`` then each of ``tests`` (Python source; a test passes when it raises
    nothing) in a sandboxed child, and say how many passed or why the run stopped.

    >>> run_tests("def add(a, b): return a + b", ["assert add(1, 2) == 3"], Limits()).passed
    1
    """
    nonce = secrets.token_hex(16)
    with tempfile.TemporaryDirectory(prefix="whileai-sandbox-") as scratch:
        work = Path(scratch)
        (work / "tests.json").write_text(json.dumps({"solution": solution, "tests": tests}))
        prefix = _network_prefix() + _process_prefix()
        command = [*prefix, sys.executable, "-I", "-S", str(_CHILD)]
        command.append(json.dumps(limits.child_config()))
        started = time.monotonic()
        code, stopped = _wait(command, work, nonce, limits.timeout_s)
        wall = time.monotonic() - started
        out, err = _tail(work / "stdout"), _tail(work / "stderr")
    network = "network namespace + audit hook" if _network_prefix() else "audit hook"
    return _outcome(nonce, out, err, code, stopped, len(tests), wall, network)


def _wait(command: list[str], work: Path, nonce: str, timeout: float) -> tuple[int, str | None]:
    """Start the child, give it the nonce, wait up to ``timeout``; its exit code and whether the
    clock stopped it. The process group is killed either way."""
    with open(work / "stdout", "wb") as out, open(work / "stderr", "wb") as err:
        child = subprocess.Popen(
            command,
            cwd=work,
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=err,
            start_new_session=True,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"},
        )
        assert child.stdin is not None
        with contextlib.suppress(BrokenPipeError):  # a child that died at start is read below
            child.stdin.write(f"{nonce}\n".encode())
            child.stdin.close()
        try:
            return child.wait(timeout=timeout), None
        except subprocess.TimeoutExpired:
            _kill_group(child.pid)
            return child.wait(), "timeout"
        finally:
            _kill_group(child.pid)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _outcome(
    nonce: str,
    out: str,
    err: str,
    code: int,
    stopped: str | None,
    total: int,
    wall: float,
    network: str,
) -> Outcome:
    result = next((line for line in reversed(out.splitlines()) if line.startswith(nonce)), None)
    if result is not None and stopped is None:
        data = json.loads(result[len(nonce) :])
        return Outcome(data["passed"], data["total"], None, data["failures"], err, wall, network)
    reason = stopped or _why_stopped(code, err)
    return Outcome(0, total, reason, [], err, wall, network)


def _why_stopped(code: int, err: str) -> str:
    if code == -signal.SIGXCPU:
        return "cpu"
    if code == -signal.SIGXFSZ or "File too large" in err:  # Python ignores SIGXFSZ: EFBIG
        return "output"
    if "MemoryError" in err:
        return "memory"
    return "signal" if code < 0 else "exited"


def _tail(path: Path) -> str:
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, path.stat().st_size - _TAIL))
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""


@functools.cache
def _network_prefix() -> tuple[str, ...]:
    """The ``unshare`` command line that gives the child an empty network namespace, or ``()``
    where none can be made here (checked once per process)."""
    tool = shutil.which("unshare")
    if tool is None or not sys.platform.startswith("linux"):
        return ()
    prefix = (tool, "--net") if os.geteuid() == 0 else (tool, "--user", "--map-root-user", "--net")
    try:
        probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return prefix if probe.returncode == 0 else ()


@functools.cache
def _process_prefix() -> tuple[str, ...]:
    """For root, util-linux's ``setpriv`` line that makes the child's real user ``nobody`` with no
    capabilities (the kernel exempts root and ``CAP_SYS_RESOURCE`` from ``RLIMIT_NPROC``) while
    its effective user stays root, so it still reads an interpreter installed under ``/root``.
    ``()`` when not root (the limit binds already) or where ``setpriv`` cannot do it."""
    tool = shutil.which("setpriv")
    if os.geteuid() != 0 or tool is None:
        return ()
    prefix = (
        tool,
        "--ruid=65534",
        "--rgid=65534",
        "--clear-groups",
        "--bounding-set=-all",
        "--inh-caps=-all",
        "--securebits=+noroot,+noroot_locked",
        "--no-new-privs",
    )
    try:
        probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return prefix if probe.returncode == 0 else ()


def describe(outcome: Outcome) -> dict[str, Any]:
    """The sandbox facts a verdict keeps in ``judge_meta``."""
    return {
        "passed": outcome.passed,
        "total": outcome.total,
        "stopped": outcome.stopped,
        "wall_s": round(outcome.wall_s, 3),
        "network": outcome.network,
    }
