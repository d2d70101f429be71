"""Reading request bodies the way discord.py sends them: JSON or multipart with ``payload_json``."""

from __future__ import annotations

import json
import mimetypes
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from .errors import ApiError

_FILE_FIELD = re.compile(r"^files\[(\d+)\]$|^file(\d*)$")
MAX_BODY_BYTES = 32 * 1024 * 1024


@dataclass
class UploadedFile:
    index: int
    filename: str
    data: bytes
    content_type: str


@dataclass
class RequestBody:
    payload: dict[str, Any] = field(default_factory=dict)
    files: list[UploadedFile] = field(default_factory=list)

    def file(self, index: int) -> UploadedFile | None:
        return next((f for f in self.files if f.index == index), None)


def guess_content_type(filename: str) -> str:
    guessed, _ = mimetypes.guess_type(filename)
    return guessed or "application/octet-stream"


async def read_body(request: web.Request) -> RequestBody:
    if not request.can_read_body:
        return RequestBody()
    if request.content_type.startswith("multipart/"):
        return await _read_multipart(request)
    raw = await request.read()
    if not raw:
        return RequestBody()
    try:
        payload = json.loads(raw)
    except ValueError as exc:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from exc
    if isinstance(payload, list):
        return RequestBody(payload={"__list__": payload})
    if not isinstance(payload, dict):
        raise ApiError(400, 50109, "The request body contains invalid JSON.")
    return RequestBody(payload=payload)


async def _read_multipart(request: web.Request) -> RequestBody:
    body = RequestBody()
    reader = await request.multipart()
    total = 0
    next_auto_index = 0
    while True:
        part = await reader.next()
        if part is None:
            break
        if not isinstance(part, BodyPartReader):
            continue
        data = await part.read(decode=False)
        total += len(data)
        if total > MAX_BODY_BYTES:
            raise ApiError(413, 40005, "Request entity too large")
        name = part.name or ""
        if name == "payload_json":
            try:
                body.payload = json.loads(data)
            except ValueError as exc:
                raise ApiError(400, 50109, "payload_json contains invalid JSON.") from exc
            continue
        match = _FILE_FIELD.match(name)
        if match is None and part.filename is None:
            continue
        if match is not None and match.group(1) is not None:
            index = int(match.group(1))
        else:
            index = next_auto_index
        next_auto_index = max(next_auto_index, index + 1)
        filename = part.filename or f"file{index}"
        body.files.append(UploadedFile(index, filename, bytes(data), guess_content_type(filename)))
    return body
