"""The room's refusals: :class:`RoomError` and its codes (PROTOCOL.md "Errors"), shared by the room, the table
runners and the table factory without importing one another."""

from __future__ import annotations

# Room-level error codes (PROTOCOL.md "Errors"), besides the protocol's validation codes.
AUTH_REQUIRED = "auth_required"
AUTH_FAILED = "auth_failed"
NO_SUCH_TABLE = "no_such_table"
TABLE_FULL = "table_full"
SEAT_TAKEN = "seat_taken"
ALREADY_SEATED = "already_seated"
NOT_SEATED = "not_seated"
BAD_AMOUNT = "bad_amount"
NO_HAND = "no_hand"


class RoomError(Exception):
    """A request the room refuses; ``code`` goes in the ``error`` reply, the message is for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
