"""The log's and the lock file's SHA-256 (`referee.chain.sha256_hex`) is Python's own
implementation, not OpenSSL's through `hashlib` (whose import cost every start with a game
file ~2.5 ms, issue 41), and gives the same digests."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from referee.chain import _sha256, fingerprint, link, sha256_hex


@given(st.binary(max_size=4096))
def test_the_digest_is_sha256(data: bytes) -> None:
    assert sha256_hex(data) == hashlib.sha256(data).hexdigest()


def test_known_digests() -> None:
    assert sha256_hex(b"") == ("e3b0c44298fc1c149afbf4c8996fb924"
                               "27ae41e4649b934ca495991b7852b855")
    assert sha256_hex(b"abc") == ("ba7816bf8f01cfea414140de5dae2223"
                                  "b00361a396177a9cb410ff61f20015ad")


@given(st.text(max_size=200), st.text(max_size=200))
def test_link_and_fingerprint_are_as_before(prev: str, body: str) -> None:
    assert link(prev, body) == hashlib.sha256((prev + body).encode("utf-8")).hexdigest()
    assert fingerprint({"b": body, "a": [prev]}) == hashlib.sha256(
        f'{{"a":[{_json(prev)}],"b":{_json(body)}}}'.encode()).hexdigest()


def _json(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def test_it_is_not_openssl_on_this_python() -> None:
    """(CPython 3.11 has `_sha256`, 3.12 on `_sha2`: both without OpenSSL.)"""
    assert _sha256().__module__ in ("_sha2", "_sha256")
