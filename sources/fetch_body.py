"""A response body read under a byte budget: gzip and deflate inflated piece by piece, so that
a compression bomb never inflates far past the limit."""

from __future__ import annotations

import zlib
from collections.abc import Iterator

import httpcore

# Largest piece of decoded output produced at once; bounds memory whatever the ratio.
DECODED_PIECE_BYTES = 64 * 1024


class _Inflater:
    """Inflates gzip or deflate piece by piece, so a bomb never inflates far past the limit."""

    def __init__(self, encoding: str) -> None:
        self._encoding = encoding
        self._decompressor: zlib._Decompress | None = None

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Yield the decoded bytes in pieces of at most DECODED_PIECE_BYTES."""
        while data:
            if self._decompressor is None:
                self._decompressor = zlib.decompressobj(self.window_bits(data))
            piece = self._decompressor.decompress(data, DECODED_PIECE_BYTES)
            data = self._decompressor.unconsumed_tail
            if self._decompressor.eof:
                data = self.next_member(self._decompressor.unused_data + data)
            if piece:
                yield piece

    def next_member(self, rest: bytes) -> bytes:
        # Concatenated gzip members are legal; trailing junk after the last one is ignored,
        # as browsers do.
        if self._encoding == "gzip" and rest.startswith(b"\x1f\x8b"):
            self._decompressor = None
            return rest
        return b""

    def window_bits(self, first: bytes) -> int:
        if self._encoding == "gzip":
            return 16 + zlib.MAX_WBITS
        # "deflate" is meant to be zlib-wrapped, but some servers send raw deflate.
        zlib_wrapped = len(first) >= 2 and first[0] & 0x0F == 8
        zlib_wrapped = zlib_wrapped and int.from_bytes(first[:2], "big") % 31 == 0
        return zlib.MAX_WBITS if zlib_wrapped else -zlib.MAX_WBITS

    def finish(self) -> str | None:
        if self._decompressor is not None and not self._decompressor.eof:
            return f"the {self._encoding} body ended before its end marker"
        return None


class _Identity:
    def feed(self, data: bytes) -> Iterator[bytes]:
        yield data

    def finish(self) -> str | None:
        return None


def make_decoder(content_encoding: str) -> _Inflater | _Identity | None:
    encoding = content_encoding.strip().lower()
    if encoding in ("", "identity"):
        return _Identity()
    if encoding in ("gzip", "x-gzip"):
        return _Inflater("gzip")
    if encoding == "deflate":
        return _Inflater("deflate")
    return None


def read_body(
    response: httpcore.Response, headers: dict[str, str], max_bytes: int, body: bytearray
) -> tuple[str, str] | None:
    """Stream the body into `body`, decoded; return (kind, reason) when it cannot be kept.

    `body` is filled in place so that a fault midway still leaves the received part.
    """
    encoding = headers.get("content-encoding", "")
    decoder = make_decoder(encoding)
    # An encoding we cannot decode is still read (raw, bounded) so the record keeps it.
    problem = None if decoder else ("undecodable", f"unsupported Content-Encoding {encoding}")
    decoder = decoder or _Identity()
    for chunk in response.iter_stream():
        try:
            for piece in decoder.feed(chunk):
                if len(body) + len(piece) > max_bytes:
                    body += piece[: max_bytes - len(body)]
                    return "too_large", f"body exceeds max_bytes ({max_bytes}) after decoding"
                body += piece
        except zlib.error as exc:
            return "undecodable", f"the {encoding} body could not be decoded: {exc}"
    end_problem = decoder.finish()
    if problem is None and end_problem is not None:
        problem = ("undecodable", end_problem)
    return problem
