#!/usr/bin/env bash
# Installs Extra-P 4.2.5 (https://github.com/extra-p/extrap, BSD-3-Clause) from PyPI into
# .venv-extrap/ at the repository's root, for scripts/extrap-compare.py and
# scripts/extrap-upstream-loads.py. Idempotent: exits at once when that venv already has
# extrap 4.2.5. Only PyPI is used (extrap pulls numpy, scipy, scikit-learn, matplotlib,
# PySide6 and a few more: about 15 s and ~600 MB the first time).
#
#   scripts/setup-extrap.sh            # then: .venv-extrap/bin/python scripts/extrap-compare.py
#   EXTRAP_VENV=/elsewhere scripts/setup-extrap.sh
set -euo pipefail
cd "$(dirname "$0")/.."

EXTRAP_VERSION=4.2.5
VENV="${EXTRAP_VENV:-$PWD/.venv-extrap}"
say() { printf '\033[1msetup-extrap:\033[0m %s\n' "$*"; }

installed() {
  [[ -x "$VENV/bin/python" ]] &&
    "$VENV/bin/python" - "$EXTRAP_VERSION" <<'EOF' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(0 if version("extrap") == sys.argv[1] else 1)
EOF
}

if installed; then
  say "extrap $EXTRAP_VERSION already in $VENV"
  exit 0
fi

if [[ ! -x "$VENV/bin/python" ]]; then
  say "creating $VENV"
  python3 -m venv "$VENV"
fi
say "installing extrap==$EXTRAP_VERSION into $VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "extrap==$EXTRAP_VERSION"

if ! installed; then
  echo "setup-extrap: extrap $EXTRAP_VERSION is still not importable from $VENV" >&2
  exit 1
fi
# Extra-P's modules import PySide6 only for the GUI; the readers and modelers work headless.
"$VENV/bin/python" -c "import extrap.modelers.model_generator, extrap.fileio.file_reader.text_file_reader"
say "extrap $EXTRAP_VERSION ready in $VENV"
