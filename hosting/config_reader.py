"""Reading typed values out of a room file's TOML tables with one-line errors naming the key's full path
(:mod:`hosting.config` for the room and its tables, :mod:`hosting.tournament_config` for its tournaments)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any


class ConfigError(ValueError):
    """A room file is unreadable or breaks a rule; the message is one line naming the key."""


class Reader:
    """Reads typed values out of a TOML table, raising :class:`ConfigError` with the key's full path."""

    def __init__(self, source: str, data: Mapping[str, Any], path: str) -> None:
        self.source, self.data, self.path = source, data, path

    def fail(self, key: str, problem: str) -> ConfigError:
        where = f"{self.path}.{key}" if self.path else key
        return ConfigError(f"{self.source}: {where}: {problem}")

    def check_keys(self, allowed: tuple[str, ...]) -> None:
        for key in self.data:
            if key not in allowed:
                raise self.fail(key, f"unknown key (allowed here: {', '.join(allowed)})")

    def text(self, key: str, default: str | None = None, pattern: re.Pattern[str] | None = None,
             what: str = "text") -> str | None:
        value = self.data.get(key, default)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"expected {what}, got {value!r}")
        if pattern is not None and not pattern.match(value):
            raise self.fail(key, f"expected {what}, got {value!r}")
        return value

    def integer(self, key: str, default: int, low: int, high: int) -> int:
        value = self.data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.fail(key, f"expected an integer from {low} to {high}, got {value!r}")
        return value

    def pair(self, key: str, what: str, default: tuple[int, int] | None = None) -> tuple[int, int]:
        value = self.data.get(key, list(default) if default else None)
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(item, int) and not isinstance(item, bool) and item > 0 for item in value)):
            raise self.fail(key, f"expected [{what}] as positive integers, got {value!r}")
        return value[0], value[1]

    def texts(self, key: str) -> list[str] | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
            raise self.fail(key, f"expected a list of text, got {value!r}")
        return value

    def choice(self, key: str, choices: tuple[str, ...], default: str | None = None) -> str:
        value = self.data.get(key, default)
        if value is None:
            raise self.fail(key, f"missing (one of: {', '.join(choices)})")
        if value not in choices:
            raise self.fail(key, f"expected one of {', '.join(choices)}, got {value!r}")
        return str(value)
