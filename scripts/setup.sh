#!/usr/bin/env bash
# Create .venv (if missing) and install whileai-env into it with the given extras.
#
#   bash scripts/setup.sh            # core only
#   bash scripts/setup.sh dev,openai # with extras
#
# torch: when an extra needs it (train, all), torch is installed first as
# ${WHILEAI_TORCH:-torch==2.13.0}. On the project's build machines that release is a CPU
# wheel on local disk, so nothing downloads a multi-GB CUDA build; elsewhere pip fetches
# the same pinned release, and WHILEAI_TORCH overrides the pin (e.g. WHILEAI_TORCH=torch).
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
pip=(.venv/bin/python -m pip --disable-pip-version-check --quiet)
case ",$extras," in
  *,train,*|*,all,*) "${pip[@]}" install "${WHILEAI_TORCH:-torch==2.13.0}" ;;
esac
if [ -n "$extras" ]; then
  "${pip[@]}" install -e ".[$extras]"
else
  "${pip[@]}" install -e .
fi
# The report tests open its page in Debian's chromium (tests/report/test_browser.py); a no-op once
# it is installed.
case ",$extras," in
  *,dev,*|*,all,*)
    command -v chromium >/dev/null ||
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) ;;
esac
