"""Build tests/referee/games/schema1.sqlite (and schema1.expected.json) with the code as it was
before issue 12 (schema 1, Gallery Grippers only): run from a checkout of 9d664c7 with
PYTHONPATH pointing at it: python make_schema1.py schema1.sqlite schema1.expected.json
"""
import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from referee.state import state_to_json

from referee.app import open_session

out = Path(sys.argv[1])
t = [datetime(2025, 5, 1, 19, 0, tzinfo=UTC)]
def clock():
    t[0] += timedelta(seconds=7)
    return t[0]
s = open_session(db=out, seed=bytes(range(32)), notify=lambda _: None, clock=clock)
for line in Path(__file__).with_name("three_players.jsonl").read_text().splitlines():
    r = json.loads(line)
    if r["cmd"] not in ("state", "catalog"):
        assert s.handle(r)["ok"], r
assert s.state.winner == "Ann"
def ok(**r):
    a = s.handle(r)
    assert a["ok"], (r, a)
ok(cmd="new_game", players=["Zoe", "Yan"])
st = s.state
sp = [c for c in sorted(st.piles["specialist"]) for _ in range(st.piles["specialist"][c])]
at = [c for c in sorted(st.piles["attribute"]) for _ in range(st.piles["attribute"][c])]
ok(cmd="deal", player="Zoe", specialists=sp[:3], attributes=at[:3])
ok(cmd="deal", player="Yan", specialists=sp[3:6], attributes=at[3:6])
ok(cmd="turn_order")
while s.state.phase.value == "setup":
    p = s.state.pending[0]
    ok(cmd="tiebreak", winner=p.options[0]) if p.options else None
cur = s.state.current_player.name
ok(cmd="roll", die="d100")
ok(cmd="move", player=cur, tile="recruitment")
ok(cmd="draw", player=cur, deck="attribute")
ok(cmd="undo")  # the box draw stays on the table (a kept card)
ok(cmd="undo")  # and the move's d6 (a kept die)
s.close()
expected = {"state": state_to_json(s.state), "kept": [k.to_json() for k in s.kept],
            "position": s.stream_position, "entries": len(s.log)}
Path(sys.argv[2]).write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
print(expected["kept"], expected["position"], expected["entries"])
