"""The luck report as a chart: inline SVG for the page (no script, no library), and the same
bars drawn with Pillow for `referee report --png` (web.report)."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from referee.luck import describe

# The Okabe-Ito colours (colour-blind safe), as the console uses them (ui/format.py).
OKABE_ITO: dict[str, str] = {
    "orange": "#E69F00", "sky blue": "#56B4E9", "bluish green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00",
    "reddish purple": "#CC79A7", "black": "#000000",
}
SOURCE_COLOUR = {"electronic": OKABE_ITO["sky blue"], "physical": OKABE_ITO["orange"]}
EXPECTED_COLOUR = "#F0F0F0"
TEXT = "#E0E0E0"
MUTED = "#A0A0A0"

W, H = 320, 140  # the chart's own units; it scales to the page's width
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 14, 38


def title(t: Mapping[str, Any]) -> str:
    return f"{t['player']} — {t['die']}, {t['source']}: {t['rolls']} roll(s)"


def bars(t: Mapping[str, Any]) -> list[tuple[float, float, float, float]]:
    """Each face's bar as (x, y, width, height) in chart units."""
    counts = list(t["counts"])
    top = max([*counts, t["expected"], 1])
    inner_w, inner_h = W - LEFT - RIGHT, H - TOP - BOTTOM
    step = inner_w / len(counts)
    out = []
    for i, c in enumerate(counts):
        h = inner_h * c / top
        out.append((LEFT + i * step + step * 0.12, TOP + inner_h - h, step * 0.76, h))
    return out


def expected_y(t: Mapping[str, Any]) -> float:
    top = float(max([*t["counts"], t["expected"], 1]))
    inner_h = H - TOP - BOTTOM
    return float(TOP + inner_h - inner_h * float(t["expected"]) / top)


def svg(t: Mapping[str, Any]) -> str:
    """One tally as an SVG bar chart: a bar per face, a dashed line at a fair die's count."""
    colour = SOURCE_COLOUR.get(str(t["source"]), OKABE_ITO["sky blue"])
    parts = [f'<svg class="chart" viewBox="0 0 {W} {H}" role="img" '
             f'aria-label="{escape(title(t))}; {escape(describe(t))}">']
    faces = list(t["faces"])
    small = len(faces) > 6
    for (x, y, w, h), count, face in zip(bars(t), t["counts"], faces, strict=True):
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
                     f'fill="{colour}"><title>{escape(face)}: {count}</title></rect>')
        cx = x + w / 2
        label = face.split("-")[0] if small else face
        parts.append(f'<text x="{cx:.1f}" y="{H - BOTTOM + 15}" font-size="13" '
                     f'text-anchor="middle" fill="{MUTED}">{escape(label)}</text>')
        if count:
            parts.append(f'<text x="{cx:.1f}" y="{y - 3:.1f}" font-size="12" '
                         f'text-anchor="middle" fill="{TEXT}">{count}</text>')
    ey = expected_y(t)
    parts.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{ey:.1f}" y2="{ey:.1f}" '
                 f'stroke="{EXPECTED_COLOUR}" stroke-width="1.5" stroke-dasharray="5 3"/>')
    parts.append(f'<text x="2" y="{ey + 4:.1f}" font-size="12" fill="{TEXT}">'
                 f'{t["expected"]:.2g}</text>')
    parts.append(f'<text x="2" y="{H - 4}" font-size="12" fill="{TEXT}">'
                 f'{escape(describe(t))}</text>')
    parts.append("</svg>")
    return "".join(parts)
