"""Exceptions raised by the fake Discord server and its scripted-player API."""

from __future__ import annotations

from typing import Any


class FakeDiscordError(Exception):
    """A test script asked for something a real Discord user could not do.

    Examples: clicking a button that is not on the message, running a slash
    command the bot never registered, submitting a modal that was never opened.
    """


class FakeTimeoutError(FakeDiscordError, TimeoutError):
    """Waiting for something from the bot took longer than the given timeout."""


class InteractionFailedError(FakeDiscordError):
    """The bot did not acknowledge an interaction in time ("This interaction failed")."""


class ApiError(Exception):
    """An error response of the fake REST API, rendered as Discord's JSON error body."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def not_found(code: int, what: str) -> ApiError:
    """Discord's 404 with one of its "Unknown X" codes."""
    return ApiError(404, code, f"Unknown {what}")


def invalid_form(errors: dict[str, Any], message: str = "Invalid Form Body") -> ApiError:
    return ApiError(400, 50035, message, errors)


# Discord JSON error codes used by the fake.
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_ROLE = 10011
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_APPLICATION_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
CANNOT_SEND_EMPTY_MESSAGE = 50006
CANNOT_SEND_TO_USER = 50007
INTERACTION_ALREADY_ACKNOWLEDGED = 40060
