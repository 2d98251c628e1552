"""The OLED draws every name the rules accept (issue 22): `device.view.drawable` maps any text
to the Latin-1 bitmap font's glyphs, and `device.render` draws it without raising."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from device.render import CHAR_W, render
from device.view import FONT_CHARS, MISSING, BoxView, drawable, fit, graphemes, wrap
from tests.names import CORPUS, longest

LATIN1_PRINTABLE = st.text(st.sampled_from(sorted(FONT_CHARS)))


@given(st.text())
def test_drawable_never_raises_and_gives_only_what_the_font_encodes(text: str) -> None:
    out = drawable(text)
    assert all(ch in FONT_CHARS for ch in out)
    out.encode("latin-1")  # what Pillow's bitmap font needs
    assert drawable(out) == out  # mapping twice changes nothing
    assert bool(out) == bool(text)  # something is drawn for any non-empty text


@given(st.text(), st.integers(min_value=2, max_value=30))
def test_fit_counts_cells_after_the_mapping(text: str, width: int) -> None:
    out = fit(text, width)
    assert len(out) <= width
    assert all(ch in FONT_CHARS for ch in out)


@given(st.text(), st.integers(min_value=4, max_value=21))
def test_wrap_counts_cells_after_the_mapping(text: str, width: int) -> None:
    assert all(len(line) <= width and all(ch in FONT_CHARS for ch in line)
               for line in wrap(text, width, 3))


@given(LATIN1_PRINTABLE)
def test_what_the_font_has_is_kept_as_it_is(text: str) -> None:
    assert drawable(text) == text


@pytest.mark.parametrize(("name", "shown"), [
    ("李明", "LiMing"), ("Σοφία", "Sofia"), ("Łukasz", "Lukasz"), ("Дмитрий", "Dmitriy"),
    ("Zoë 🎨", f"Zoë {MISSING}"),
    ("👍🏽 Ana", f"{MISSING} Ana"),  # a skin-tone modifier: one cell with its emoji
    ("👩\u200d🎨 Mia", f"{MISSING} Mia"),  # a ZWJ sequence: one cell
    ("🏳️\u200d🌈", MISSING),  # a flag with a variation selector and a ZWJ: one cell
    ("Ame\u0301lie", "Amélie"),  # a combining mark the font has composed
    ("q\u0301", "q"),  # one it has not: the letter, one cell
])
def test_names_are_spelled_in_latin_letters_and_a_cluster_is_one_cell(name: str,
                                                                      shown: str) -> None:
    assert drawable(name) == shown


def test_grapheme_clusters() -> None:
    assert graphemes("👩\u200d🎨x") == ["👩\u200d🎨", "x"]
    assert graphemes("e\u0301\u0328") == ["e\u0301\u0328"]
    assert graphemes("🇫🇷🇩🇪") == ["🇫🇷", "🇩🇪"]
    assert graphemes("👍🏽!") == ["👍🏽", "!"]


def inked(image: Image.Image, box: tuple[int, int, int, int]) -> bool:
    return image.crop(box).getbbox() is not None


@pytest.mark.parametrize("name", [*CORPUS, longest(24)])
def test_every_corpus_name_is_drawn_with_ink_everywhere_text_goes(name: str) -> None:
    views = [
        BoxView("turn", title=f"{name} T1", lines=(name,), hint=name, strikes=1),
        BoxView("menu", title=name, menu=(name, name, name, name, name), cursor=2),
        BoxView("turn", title=name, big="4", source=name, lines=(name, name)),
        BoxView("turn", title=name, notice=f"{name}\n{name}"),
        BoxView("idle", lines=(name, name)),
        BoxView("code", code=((True, False) * 10,) * 20, lines=(name,), hint=name),
    ]
    for view in views:
        image = render(view)
        assert image.size == (128, 64) and image.getbbox() is not None


def test_a_cell_the_font_lacks_is_drawn_as_a_hollow_box() -> None:
    image = render(BoxView("turn", lines=("🎨",)))
    cell = image.crop((1, 10, 1 + CHAR_W, 21))  # the first body line's first cell
    ref = Image.new("1", cell.size, 0)
    draw = ImageDraw.Draw(ref)
    draw.rectangle((0, 3, CHAR_W - 2, 9), outline=1)
    assert cell.tobytes() == ref.tobytes()
    # an emoji is not spelled out as its shortcode (":art:" is five cells)
    assert not inked(image, (1 + CHAR_W, 10, 128, 21))


@settings(max_examples=60, deadline=None)
@given(title=st.text(max_size=30), line=st.text(max_size=30), item=st.text(max_size=30),
       hint=st.text(max_size=30), notice=st.one_of(st.none(), st.text(max_size=40)),
       big=st.one_of(st.none(), st.text(min_size=1, max_size=4)))
def test_render_never_raises_on_any_text(title: str, line: str, item: str, hint: str,
                                         notice: str | None, big: str | None) -> None:
    for view in (BoxView("turn", title=title, lines=(line,), menu=(item, item), hint=hint,
                         notice=notice, big=big, source=line),
                 BoxView("idle", lines=(line, title))):
        assert render(view).size == (128, 64)



def test_the_terminal_mirror_shows_a_name_its_encoding_lacks_as_question_marks() -> None:
    import io

    from device.mirror import terminal_printer

    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="latin-1")
    show = terminal_printer(stream, status=lambda: "李明 rolled 4")
    show(render(BoxView("turn", title="李明 T1")))
    stream.flush()
    assert raw.getvalue().decode("latin-1").rstrip().endswith("?? rolled 4")
