# Sourced by scripts/run and scripts/test: create or refresh the project's virtualenv.
# One venv serves both: it is (re)built only when pyproject.toml changes or when it lacks an
# extra that the caller needs (the test tools, the first time scripts/test runs; the page's
# libraries, the first time scripts/run --web runs). A venv that already has more extras than
# asked for is used as it is: nothing is reinstalled for nothing. The extras nest: "" (the
# package alone, what scripts/run installs) < "[web]" < "[test]" (which pulls [web] in).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${REFEREE_VENV:-$ROOT/.venv}"
PY="${PYTHON:-python3}"
EXTRAS="${1:-}"  # "", "[web]" or "[test]"
_extras_rank() { case "$1" in "") echo 0 ;; "[web]") echo 1 ;; *) echo 2 ;; esac; }
"$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
    echo "Tableside Referee needs Python 3.11 or newer ($PY is $("$PY" --version 2>&1))." >&2; exit 1; }
stamp="$VENV/.referee-stamp"
hash="$(sha256sum "$ROOT/pyproject.toml" | cut -c1-16)"
# The stamp is the first 16 hex digits of pyproject.toml's hash, then the extras installed.
had="$(cat "$stamp" 2>/dev/null || true)"
had_hash="${had:0:16}" had_extras="${had:16}"
why=""
if [ ! -x "$VENV/bin/python" ] || [ -z "$had" ]; then
    case "$EXTRAS" in "") with="" ;; "[web]") with=" with the page's libraries" ;;
        *) with=" with its test tools" ;; esac
    why="first use: installing Tableside Referee$with from the package index"
elif [ "$had_hash" != "$hash" ]; then
    why="pyproject.toml changed: updating the installed packages"
elif [ "$(_extras_rank "$had_extras")" -lt "$(_extras_rank "$EXTRAS")" ]; then
    if [ "$EXTRAS" = "[web]" ]; then why="installing the page's libraries, the web extra (once)"
    else why="installing the test tools (once)"; fi
fi
if [ -n "$why" ]; then
    # Keep the extras the venv already has, so scripts/run after scripts/test removes nothing.
    [ "$(_extras_rank "$had_extras")" -gt "$(_extras_rank "$EXTRAS")" ] && EXTRAS="$had_extras"
    echo "Setting up $VENV ($why; a minute or two)..." >&2
    log="$(mktemp)"
    if ! { [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"; } >"$log" 2>&1 \
        || ! { "$VENV/bin/python" -m pip install -q --upgrade pip \
               && "$VENV/bin/python" -m pip install -q -e "$ROOT$EXTRAS" \
               && "$VENV/bin/python" -m referee.dataclass_code \
               && "$VENV/bin/python" -m ui.css_warm; } >>"$log" 2>&1; then
        cat "$log" >&2; rm -f "$log"; echo "Setting up $VENV failed (see above)." >&2; exit 1
    fi
    rm -f "$log"
    echo "$hash$EXTRAS" > "$stamp"
fi
