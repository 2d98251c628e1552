"""The page as HTML, from a `web.view` snapshot. One renderer: the first load and every pushed
update show the same markup (the script only swaps it in), so the page reads the same with
scripts off. Every value from the game is escaped; no element id is built from game data."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping, Sequence
from html import escape
from importlib.resources import files
from typing import Any

from referee.words import corrected
from web.chart import OKABE_ITO, SOURCE_COLOUR, svg

# A seat's colour is one of a fixed list of classes (the palette's index), never a style
# attribute (the page's policy allows no inline style) nor a name made from game data.
PALETTE = list(OKABE_ITO)
CSS = (files("web") / "static" / "page.css").read_text(encoding="utf-8") + "".join(
    f".c{i} {{ --seat: {hexa}; }}\n" for i, hexa in enumerate(OKABE_ITO.values())) + "".join(
    f".src-{k} {{ background: {hexa}; }}\n" for k, hexa in SOURCE_COLOUR.items())
JS = (files("web") / "static" / "page.js").read_text(encoding="utf-8")


def _sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


# Only the page's own inline style and script run; it talks to nothing but its own events.
CSP = (f"default-src 'none'; style-src {_sha(CSS)}; script-src {_sha(JS)}; "
       "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")


def e(value: Any) -> str:
    return escape(str(value))


# A game's own colour names drawn in the palette's nearest colour (the name is always written
# beside it, so two seats never differ by colour alone): The A.R.T. Project's red, green, purple.
NEAREST = {"red": "vermillion", "green": "bluish green", "purple": "reddish purple",
           "pink": "reddish purple", "light blue": "sky blue"}


def colour_class(name: str | None) -> str:
    """The seat's colour class; white (no class) for a colour not in the palette."""
    key = (name or "").casefold()
    key = NEAREST.get(key, key)
    return f" c{PALETTE.index(key)}" if key in PALETTE else ""


def _names(names: list[str]) -> str:
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def game_over(r: Mapping[str, Any], players: Sequence[str] = ()) -> str:
    """How the game ended, in a line: who won (or who lost, `players` being the table),
    why, and the rule."""
    winners = [str(w) for w in r.get("winners") or []]
    if winners:
        who = f"{_names(winners)} {'wins' if len(winners) == 1 else 'win'}"
    elif r.get("outcome") and players:
        outcome = str(r["outcome"])
        who = f"{_names(list(players))} {outcome}" if outcome in ("lost", "won", "drew") \
            else f"{outcome} ({_names(list(players))})"
    else:
        who = str(r.get("outcome") or "nobody won")
    reason = str(r.get("reason") or "").replace("_", " ")
    rule = f" ({r['rule']})" if r.get("rule") else ""
    return f"Game over: {who}" + (f" — {reason}" if reason else "") + rule


def status(s: Mapping[str, Any]) -> str:
    out = [f"<h1>{e(s['game'])}</h1>"]
    past = s.get("past")
    if past:
        front = past.get("front")
        link = f' <a href="{e(front)}">The game being played</a>.' if front else ""
        out.append('<p class="past">This game is no longer being played; its page stays '
                   f"as it ended, with its dice proof.{link}</p>")
    if past and past.get("status") == "abandoned" and not s["over"]:
        out.append('<p class="next">Left unfinished: a new game was started.</p>')
    elif s["over"]:
        players = [str(x["name"]) for x in s.get("seats") or []]
        out.append(f'<p class="next">{e(game_over(s.get("result") or {}, players))}</p>')
    elif s["phase"] in ("", "no_game"):
        out.append('<p class="next">No game yet: the page fills in when one starts.</p>')
    else:
        turn = []
        if s.get("current"):
            turn.append(f"<strong>{e(s['current'])}</strong> to play")
        waiting = [w for w in s.get("waiting") or [] if w != s.get("current")]
        if waiting:
            turn.append(f"waiting for {e(', '.join(waiting))}")
        # the console's word for it: "Turn 12" where the game counts turns, else its round
        if s.get("turn"):
            count = f", turn {e(s['turn'])}"
        elif s.get("round"):
            count = f", round {e(s['round'])}"
        else:
            count = ""
        where = f"phase {e(str(s['phase']).replace('_', ' '))}{count}"  # (final scoring)
        out.append(f"<p>{'; '.join(turn) or 'The table'} · <span class='muted'>{where}</span>"
                   "</p>")
        if s.get("next"):
            out.append(f'<p class="next">Next: {e(s["next"])}</p>')
    own = "" if past or not s.get("own") else (
        f' <a href="{e(s["own"])}">This game\'s own page</a> keeps its result and proof after '
        "it.")
    n = int(s["commands"] or 0)
    out.append(f'<p class="muted">{n} {"command" if n == 1 else "commands"} so far.{own}</p>'
               '<p class="offline">Connection lost: reconnecting…</p>')
    return '<section id="status">' + "".join(out) + "</section>"


def table(s: Mapping[str, Any]) -> str:
    rows = []
    # nobody acts in a game left unfinished (issue 39: its page still said "— to act")
    left = (s.get("past") or {}).get("status") == "abandoned" and not s.get("over")
    for seat in s["seats"]:
        col = seat.get("color")
        named = f" <span class='muted'>({e(col)})</span>" if col else ""
        st = (f" <span class='status'>— {e(seat['status'])}</span>"
              if seat.get("status") and not left else "")
        figures = "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in seat["figures"])
        rows.append(f'<div class="seat{colour_class(col)}"><h3>{e(seat["name"])}'
                    f'{named}{st}</h3><dl class="figures">{figures}</dl></div>')
    body = "".join(rows) or '<p class="muted">No players yet.</p>'
    return f'<section id="table"><h2>The table</h2><div class="seats">{body}</div></section>'


def _terms(v: Mapping[str, Any]) -> str:
    rows = "".join(f"<tr><td>{e(k)}</td><td>{e(val)}</td></tr>" for k, val in v["terms"])
    return f'<table class="terms">{rows}</table>'


def verdict(s: Mapping[str, Any]) -> str:
    v = s.get("verdict")
    if not v:
        return ('<section id="verdict"><h2>Verdicts</h2>'
                '<p class="muted">None yet.</p></section>')
    out = [f'<section id="verdict"><h2>Verdicts</h2><p>{e(v["title"])} '
           f'<span class="muted">(#{e(v["seq"])})</span></p>{_terms(v)}']
    earlier = [x for x in s.get("verdicts") or [] if x["seq"] != v["seq"]]
    if earlier:
        out.append('<details><summary>Earlier verdicts</summary><ol class="verdicts">')
        out += [f'<li><span class="seq">#{e(x["seq"])}</span>{e(x["title"])}{_terms(x)}</li>'
                for x in earlier]
        out.append("</ol></details>")
    return "".join(out) + "</section>"


def _draw(s: Mapping[str, Any]) -> str:
    """The last draw the box made from a pile (a visitor from the bag, a card)."""
    d = s.get("draw")
    if not d:
        return ""
    items = "".join(
        f'<li><span class="die-value">{e(x["card"])}</span><span class="die-of">'
        + (f"<strong>{e(x['player'])}</strong> · " if x.get("player") else "")
        + f'{e(x["purpose"])}<br><span class="muted">{e(x["source"])}</span></span></li>'
        for x in d["draws"])
    return (f'<h2>Last draw <span class="muted">(#{e(d["seq"])})</span></h2>'
            f'<ul class="dice">{items}</ul>')


def dice(s: Mapping[str, Any]) -> str:
    """The last roll, large; every die of its step (a turn-order roll: each player's); and
    the last draw from a pile, where the game draws."""
    d = s.get("dice")
    drawn = _draw(s)
    if not d:
        if drawn:
            return f'<section id="dice">{drawn}</section>'
        return ('<section id="dice"><h2>Last roll</h2>'
                '<p class="muted">No dice rolled yet.</p></section>')
    items = "".join(
        f'<li><span class="die-value">{e(x["value"])}</span><span class="die-of">'
        + (f"<strong>{e(x['player'])}</strong> · " if x.get("player") else "")
        + f'{e(x["die"])} {e(x["purpose"])}<br><span class="muted">{e(x["source"])}</span>'
        + (f'<br><span class="corrected">corrected from {e(x["corrected_from"])} after its '
           "result</span>" if x.get("corrected_from") is not None else "")
        + "</span></li>" for x in d["dice"])
    fixed = s.get("corrections") or []
    note = (f'<p class="corrected">{e(corrected(fixed))}</p>' if fixed else "")
    return (f'<section id="dice"><h2>Last roll <span class="muted">(#{e(d["seq"])})</span>'
            f'</h2><ul class="dice">{items}</ul>{note}{drawn}</section>')


def proof(s: Mapping[str, Any]) -> str:
    p = s["proof"]
    out = ['<section id="proof"><h2>Dice proof</h2>']
    if not p.get("commitment"):
        out.append('<p class="muted">The commitment shows when a game starts.</p>')
    else:
        out.append(f"<p>Commitment (SHA-256 of the secret seed):<br><code>{e(p['commitment'])}"
                   "</code></p>")
    if p.get("seed"):
        out.append(f"<p>Seed, revealed:<br><code>{e(p['seed'])}</code></p>")
        check = p.get("check")
        if check == "good":
            out.append('<p class="verdict-good">Check every roll: GOOD — every electronic '
                       "roll follows from the revealed seed.</p>")
        elif check == "bad":
            out.append('<p class="verdict-bad">Check every roll: BAD</p>')
        else:
            out.append('<p class="muted">Check every roll: not checkable here.</p>')
        out += [f'<p class="muted">{e(n)}</p>' for n in p.get("notes") or []]
    elif p.get("commitment"):
        out.append('<p class="muted">The seed is revealed when the game ends; then every '
                   "roll can be checked against this commitment.</p>")
    return "".join(out) + "</section>"


def luck(s: Mapping[str, Any]) -> str:
    tallies = [t for t in s["luck"]["tallies"] if t["rolls"]]
    legend = "".join(f'<span class="src-{k}"></span> {e(k)} ' for k in SOURCE_COLOUR)
    if not tallies:
        body = '<p class="muted">No dice rolled yet.</p>'
    else:
        body = '<div class="charts">' + "".join(
            f"<figure><figcaption>{e(t['player'])} — {e(t['die'])}, {e(t['source'])}: "
            f"{e(t['rolls'])} roll(s), χ² {e(t['chi_square'])}</figcaption>{svg(t)}</figure>"
            for t in tallies) + "</div>"
    return (f'<section id="luck"><h2>Luck report</h2><p class="legend muted">{legend} · '
            "dashed line: a fair die's count</p>" + body + "</section>")


def log(s: Mapping[str, Any]) -> str:
    items = "".join(
        f'<li data-seq="{int(x["seq"])}"><span class="seq">#{e(x["seq"])}</span>'
        + (f'<span class="undone">{e(x["text"])}</span> (undone)' if x["undone"]
           else e(x["text"])) + "</li>" for x in s["log"])
    return (f'<section id="log"><h2>Log</h2><ol class="log">'
            f'{items or "<li class=muted>Nothing yet.</li>"}</ol></section>')


def house_rules(s: Mapping[str, Any]) -> str:
    """The house rules in force, each named and explained in the table's words (issue 39);
    nothing before a game."""
    rules = s.get("house_rules") or []
    if not rules:
        return ""
    items = "".join(f"<li><strong>{e(r['name'])}</strong>: {e(r['value'])} — {e(r['explain'])}"
                    f' <span class="muted">({e(r["rule"])})</span></li>' for r in rules)
    return (f'<section id="house-rules"><details><summary>House rules in force</summary>'
            f'<ul class="rules">{items}</ul></details></section>')


def board(s: Mapping[str, Any]) -> str:
    """The game's board as its ruleset describes it (`referee.ruleset.DescribesBoard`):
    each panel a small table, whatever the game; nothing for a game without one."""
    panels = s.get("board") or []
    if not panels:
        return ""
    out = ['<section id="board"><h2>The board</h2>']
    for panel in panels:
        rows = list(panel.get("rows") or [])
        head = ""
        if panel.get("header") and rows:
            head = "<thead><tr>" + "".join(f"<th>{e(c)}</th>" for c in rows[0]) + "</tr></thead>"
            rows = rows[1:]
        cells = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>"
                        for row in rows)
        out.append(f'<div class="panel"><h3>{e(panel.get("title", ""))}</h3>'
                   f'<table class="board">{head}<tbody>{cells}</tbody></table></div>')
    return "".join(out) + "</section>"


def body(s: Mapping[str, Any]) -> str:
    """The live part of the page (what each update replaces)."""
    return (status(s) + dice(s) + table(s) + board(s) + verdict(s) + proof(s) + luck(s)
            + log(s) + house_rules(s))


def document(s: Mapping[str, Any], *, events: str, version: int, drawn: str | None = None
             ) -> str:
    """The whole page: `drawn` (its live part, drawn already) or `body(s)`."""
    live = body(s) if drawn is None else drawn
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            "<meta name='referrer' content='no-referrer'>"
            f"<title>{e(s['game'])} — Tableside Referee</title><style>{CSS}</style></head>"
            f"<body data-version='{version}'><main id='live' data-events='{e(events)}'>"
            f"{live}</main><script>{JS}</script></body></html>")
