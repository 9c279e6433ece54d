"""The sandboxed child of :mod:`whileai_env.judges.sandbox`: run as a script, never imported.

``python -I -S _sandbox_child.py '<limits json>'`` in a scratch folder holding ``tests.json``
(the solution and the hidden tests). It reads a one-time nonce from stdin and the code, deletes
the file, then, before any candidate code runs: sets the resource limits (address space, CPU
seconds, file size, no core dumps, and processes: those its real user already runs plus
``max_processes``) and installs an audit hook that refuses every socket (the network guard that
works where no network namespace can be made). It then runs the solution and each test in one namespace and
writes ``<nonce>{"passed", "total", "failures"}`` as its last line. Only this script knows the
nonce, so a solution that exits early (``sys.exit(0)``, ``os._exit(0)``) leaves no result line
and fails, rather than passing tests it never ran.
"""

import json
import os
import resource
import sys

# Bound before any candidate code runs, so a solution that patches os.write, json.dumps or a
# builtin cannot rewrite the result line.
_WRITE, _DUMPS, _LEN, _EXEC, _COMPILE = os.write, json.dumps, len, exec, compile
_BLOCKED = ("socket.__new__", "socket.connect", "socket.bind", "socket.getaddrinfo")


def _limit(cfg):
    mb = 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cfg["memory_mb"] * mb,) * 2)
    resource.setrlimit(resource.RLIMIT_CPU, (cfg["cpu_s"], cfg["cpu_s"] + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (cfg["output_mb"] * mb,) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _processes_of(uid):
    """How many processes have real uid ``uid`` (what ``RLIMIT_NPROC`` counts)."""
    count = 0
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else ():
        try:
            with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as handle:
                uids = next(line for line in handle if line.startswith("Uid:"))
        except (OSError, StopIteration):
            continue
        count += int(uids.split()[1]) == uid
    return count


def _cap_processes(cfg):
    cap = _processes_of(os.getuid()) + cfg["max_processes"]
    resource.setrlimit(resource.RLIMIT_NPROC, (cap, cap))


def _no_network(event, args):
    if event in _BLOCKED:
        raise PermissionError(f"network access is blocked in the sandbox ({event})")


def _run(code, namespace):
    tests = list(code["tests"])
    total = _LEN(tests)
    try:
        _EXEC(_COMPILE(code["solution"], "solution.py", "exec"), namespace)
    except BaseException as exc:
        return 0, total, [f"solution: {type(exc).__name__}: {exc}"[:500]]
    passed, failures = 0, []
    for index, test in enumerate(tests):
        try:
            _EXEC(_COMPILE(test, f"test_{index}.py", "exec"), namespace)
            passed += 1
        except BaseException as exc:
            failures.append(f"test {index}: {type(exc).__name__}: {exc}"[:500])
    return passed, total, failures


def main():
    cfg = json.loads(sys.argv[1])
    nonce = sys.stdin.readline().strip()
    with open("tests.json", encoding="utf-8") as handle:
        code = json.load(handle)
    os.remove("tests.json")  # hidden tests stay hidden from the solution
    out = os.dup(1)
    _limit(cfg)
    _cap_processes(cfg)
    sys.addaudithook(_no_network)
    passed, total, failures = _run(code, {"__name__": "solution"})
    line = _DUMPS({"passed": passed, "total": total, "failures": failures[:5]})
    _WRITE(out, ("\n" + nonce + line + "\n").encode())


if __name__ == "__main__":
    main()
