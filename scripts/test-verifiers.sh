#!/usr/bin/env bash
# The verifiers faces against the real releases, each in its own venv (0.3 and 0.4 cannot share
# one, and the main .venv must never import verifiers):
#   1. the vf03_*/vf04_* tests in tests/envs/verifiers/ with that venv's python;
#   2. an exported package installed in the venv, `whileai-env serve --policy ...` on 127.0.0.1
#      and the real `vf-eval` with small n: every rollout completes and each reward (so the mean)
#      equals the in-process reward on the same tasks (both means printed). 0.3 (classic): oracle,
#      seeded and silent, then `vf-eval whileai-env -a '{"spec": ...}'` with no export. 0.4 (v1:
#      a process per rollout, so fewer): oracle and seeded.
#
#   bash scripts/test-verifiers.sh            # both generations, as CI runs it
#   WHILEAI_VERIFIERS=04 bash scripts/test-verifiers.sh
#
# The venvs are cached outside the clone (WHILEAI_VENV_CACHE, default ~/.cache/whileai-env/venvs),
# so CI builds them once per machine; whileai-env itself is reinstalled (editable, no deps) each run.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
cache="${WHILEAI_VENV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/whileai-env/venvs}"
python="${PYTHON:-python3}"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# venv NAME REQUIREMENT...: create (once) and refresh the cached venv; prints its path.
venv() {
  local dir="$cache/$1"
  shift
  local pip=("$dir/bin/python" -m pip --disable-pip-version-check --quiet)
  if [ ! -f "$dir/.ready-$1" ]; then
    rm -rf "$dir" && mkdir -p "$cache" && "$python" -m venv "$dir"
    "${pip[@]}" install "$@" "pytest>=8" "hatchling>=1.24" editables >&2
    "${pip[@]}" install -e "$root" >&2
    touch "$dir/.ready-$1"
  fi
  "${pip[@]}" install --no-deps --no-build-isolation -e "$root" >&2
  echo "$dir"
}

# serve PYTHON PACKAGE POLICY: start the endpoint on a free port; sets $base_url and $server_pid.
serve() {
  local log="$work/serve-$3.log"
  : > "$log"  # before the server's own redirect opens it: a sed that ran first failed the script
  "$1" -m whileai_env.cli serve "$2" --policy "$3" --port 0 2> "$log" &
  server_pid=$!
  for _ in $(seq 100); do
    base_url="$(sed -n 's/^serving .* at //p' "$log")"
    if [ -n "$base_url" ]; then return 0; fi
    sleep 0.1
  done
  cat "$log" >&2
  return 1
}

stop_server() { kill "$server_pid" && wait "$server_pid" 2>/dev/null || true; server_pid=""; }

# check GENERATION VENV: tests, export, install, then vf-eval per policy.
check() {
  local gen="$1" dir="$2" py="$2/bin/python"
  echo "== verifiers $("$py" -c 'import importlib.metadata as m; print(m.version("verifiers"))') ($gen)"
  "$py" -m pytest -q -p no:cacheprovider tests/envs/verifiers/vf${gen}_*.py
  local package="$work/env$gen"
  "$py" -m whileai_env.cli export configs/specs/order-support.json -o "$package" -n 12 --name whileai_ci > /dev/null
  "$py" -m pip --disable-pip-version-check --quiet install --no-deps --no-build-isolation "$package"
  local policies=(oracle seeded silent)
  if [ "$gen" = 04 ]; then policies=(oracle seeded); fi
  for policy in "${policies[@]}"; do
    serve "$py" "$package" "$policy"
    "eval_$gen" "$dir" "$work/out-$gen-$policy" whileai_ci '{}'
    stop_server
    "$py" -m tests.envs.verifiers.vf_eval_check "$work/out-$gen-$policy" "$package" "$policy"
  done
  if [ "$gen" = 04 ]; then return 0; fi
  # No export: verifiers loads the module whileai_env itself with the spec as an argument.
  local spec=configs/specs/order-support.json
  serve "$py" "$spec" oracle
  "eval_$gen" "$dir" "$work/out-$gen-spec" whileai-env "{\"spec\": \"$spec\", \"n\": 20}"
  stop_server
  "$py" -m tests.envs.verifiers.vf_eval_check "$work/out-$gen-spec" "$spec" oracle
}

# eval_03 VENV OUT ENV_ID ENV_ARGS
eval_03() {
  WHILEAI_CI_KEY=unused "$1/bin/vf-eval" "$3" -a "$4" -m whileai-policy -b "$base_url" -k WHILEAI_CI_KEY \
    -n 10 -r 2 -c 8 -s -o "$2" --disable-tui > "$2.log" 2>&1 || { tail -40 "$2.log"; return 1; }
}

# eval_04 VENV OUT ENV_ID ENV_ARGS: v1 takes the taskset's flags, not -a; the env's defaults are
# the null harness in the local subprocess runtime; --no-push keeps the run here.
eval_04() {
  WHILEAI_CI_KEY=unused "$1/bin/vf-eval" "$3" -m whileai-policy --client.base-url "$base_url" \
    --client.api-key-var WHILEAI_CI_KEY --no-push -n 4 -r 1 -c 4 -o "$2" > "$2.log" 2>&1 \
    || { tail -40 "$2.log"; return 1; }
}

for gen in ${WHILEAI_VERIFIERS:-03 04}; do
  case "$gen" in
    03) requirements=('verifiers==0.3.1') ;;
    # The null harness runs its chat loop as a uv script: uv comes from the venv (on PATH below).
    04) requirements=('verifiers>=0.4,<0.5' 'uv>=0.5') ;;
    *) echo "unknown verifiers generation $gen (03 or 04)" >&2; exit 2 ;;
  esac
  dir="$(venv "vf$gen" "${requirements[@]}")"
  PATH="$dir/bin:$PATH" check "$gen" "$dir"
done
echo "verifiers checks passed"
