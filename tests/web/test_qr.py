"""The page's QR code as console text and as an OLED picture hold exactly segno's modules."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from web.qr import QUIET, image, matrix, text

URLSAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
TOKENS = st.text(st.sampled_from(URLSAFE), min_size=22, max_size=22)
HOSTS = st.sampled_from(["127.0.0.1", "192.168.178.23", "10.0.0.5", "box.local"])


@settings(max_examples=25, deadline=None)
@given(HOSTS, TOKENS)
def test_console_text_reads_back_as_the_modules(host: str, token: str) -> None:
    url = f"http://{host}:8080/g/{token}/"
    m = matrix(url)
    dark_top = {" ": True, "▄": True, "▀": False, "█": False}
    dark_bottom = {" ": True, "▀": True, "▄": False, "█": False}
    rows = text(url).split("\n")
    back = []
    for r in rows:
        back.append([dark_top[c] for c in r])
        back.append([dark_bottom[c] for c in r])
    assert back[:len(m)] == m
    assert not any(m[0]) and not any(any(row[:QUIET]) for row in m)  # the quiet zone


@settings(max_examples=25, deadline=None)
@given(HOSTS, TOKENS)
def test_the_oled_picture_is_the_code_at_two_pixels_a_module(host: str, token: str) -> None:
    url = f"http://{host}:8080/g/{token}/"
    m = matrix(url, quiet=1)
    img = image(url)
    assert img.size == (128, 64) and img.mode == "1"
    assert len(m) * 2 <= 64  # big enough for a phone's camera on a 0.96" screen
    x0, y0 = (128 - 2 * len(m)) // 2, (64 - 2 * len(m)) // 2
    for y, row in enumerate(m):
        for x, dark in enumerate(row):
            lit = img.getpixel((x0 + 2 * x + 1, y0 + 2 * y + 1))
            assert bool(lit) is (not dark)
