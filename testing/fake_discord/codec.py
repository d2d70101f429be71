"""Gateway transport compression: none, ``zlib-stream`` or ``zstd-stream`` (whatever the client asks for)."""

from __future__ import annotations

import zlib
from typing import Any, Protocol


class GatewayEncoder(Protocol):
    def encode(self, text: str) -> str | bytes: ...


class PlainEncoder:
    def encode(self, text: str) -> str | bytes:
        return text


class ZlibStreamEncoder:
    """One zlib stream per connection; each message ends with a Z_SYNC_FLUSH (00 00 ff ff)."""

    def __init__(self) -> None:
        self._compressor = zlib.compressobj()

    def encode(self, text: str) -> str | bytes:
        data = text.encode()
        return self._compressor.compress(data) + self._compressor.flush(zlib.Z_SYNC_FLUSH)


class ZstdStreamEncoder:
    """One zstd stream per connection; each message is flushed as a complete block."""

    def __init__(self) -> None:
        self._impl: Any
        try:
            import zstandard  # type: ignore[import-not-found, unused-ignore]

            self._flush_mode = zstandard.COMPRESSOBJ_FLUSH_BLOCK
            self._impl = zstandard.ZstdCompressor().compressobj()
            self._stdlib = False
        except ImportError:
            from compression import zstd  # type: ignore[import-not-found, unused-ignore]

            self._impl = zstd.ZstdCompressor()
            self._flush_mode = zstd.ZstdCompressor.FLUSH_BLOCK
            self._stdlib = True

    def encode(self, text: str) -> str | bytes:
        data = text.encode()
        if self._stdlib:
            return bytes(self._impl.compress(data, mode=self._flush_mode))
        return bytes(self._impl.compress(data) + self._impl.flush(self._flush_mode))


class UnsupportedCompression(ValueError):
    pass


def encoder_for(compress: str | None) -> GatewayEncoder:
    if not compress:
        return PlainEncoder()
    if compress == "zlib-stream":
        return ZlibStreamEncoder()
    if compress == "zstd-stream":
        try:
            return ZstdStreamEncoder()
        except ImportError as exc:
            raise UnsupportedCompression("zstd-stream requested but no zstd library is installed") from exc
    raise UnsupportedCompression(f"unknown compress={compress!r}")
