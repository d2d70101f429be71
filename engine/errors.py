"""The one exception the engine raises for a bad answer."""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """An answer that the rules do not allow.

    ``code`` is machine-readable (the bot translates it through its catalogs with
    ``params``); ``message`` is a plain English explanation for logs and tests.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"
