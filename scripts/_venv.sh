# Sourced by scripts/run and scripts/test: create or refresh the project's virtualenv.
# The venv is rebuilt when pyproject.toml changes (its hash is kept in a stamp file).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${REFEREE_VENV:-$ROOT/.venv}"
PY="${PYTHON:-python3}"
EXTRAS="${1:-}"
"$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
    echo "Tableside Referee needs Python 3.11 or newer ($PY is $("$PY" --version 2>&1))." >&2; exit 1; }
stamp="$VENV/.referee-stamp"
want="$(sha256sum "$ROOT/pyproject.toml" | cut -c1-16)$EXTRAS"
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "Setting up $VENV (first use or pyproject.toml changed)..." >&2
    log="$(mktemp)"
    if ! { "$PY" -m venv "$VENV" && "$VENV/bin/python" -m pip install -q --upgrade pip \
            && "$VENV/bin/python" -m pip install -q -e "$ROOT$EXTRAS"; } >"$log" 2>&1; then
        cat "$log" >&2; echo "Setting up $VENV failed (see above)." >&2; exit 1
    fi
    rm -f "$log"
    echo "$want" > "$stamp"
fi
