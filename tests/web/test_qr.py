"""The page's QR code as console text and as an OLED picture hold exactly segno's modules."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from web.qr import QUIET, image, matrix, oled_matrix, text

BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
TOKENS = st.text(st.sampled_from(BASE32), min_size=24, max_size=24)
HOSTS = st.sampled_from(["127.0.0.1", "192.168.178.23", "10.0.0.5", "box.local"])
# The longest a table's box is likely to be called: a full IPv4 address, or a long name.
LONG_HOSTS = st.sampled_from(["192.168.100.200", "tableside-referee.local",
                              "tableside-referee-2.fritz.box", "255.255.255.255"])


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
    url = f"HTTP://{host.upper()}:8080/G/{token}/"
    m = matrix(url, quiet=1)
    img = image(url)
    assert img.size == (128, 64) and img.mode == "1"
    assert len(m) * 2 <= 64  # big enough for a phone's camera on a 0.96" screen
    x0, y0 = (128 - 2 * len(m)) // 2, (64 - 2 * len(m)) // 2
    for y, row in enumerate(m):
        for x, dark in enumerate(row):
            lit = img.getpixel((x0 + 2 * x + 1, y0 + 2 * y + 1))
            assert bool(lit) is (not dark)


@settings(max_examples=40, deadline=None)
@given(LONG_HOSTS, TOKENS, st.integers(1, 65535))
def test_the_address_in_capitals_fits_the_oled_at_two_pixels_a_module(
    host: str, token: str, port: int
) -> None:
    """In capitals the whole address is in the QR code's alphanumeric mode: up to 77
    characters make a version-3 code (29 modules), 62 px tall with its quiet zone."""
    url = f"http://{host}:{port}/g/{token}/".upper()
    assert len(url) <= 77
    m = oled_matrix(url)
    assert m is not None and len(m) * 2 <= 64
    assert m == matrix(url, quiet=1)


@given(TOKENS)
def test_mixed_case_or_too_long_an_address_gets_no_oled_code(token: str) -> None:
    """What the OLED would have had to draw at one pixel a module, too small to scan."""
    lower = f"http://tableside-referee.local:8080/g/{token}/"  # 62 characters, byte mode
    assert oled_matrix(lower) is None
    assert oled_matrix(lower.upper()) is not None
    assert oled_matrix("HTTP://" + "A" * 80 + f":8080/G/{token}/") is None
