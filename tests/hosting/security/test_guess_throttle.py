"""Issue 13 item 6: the wait imposed on an address after wrong gate answers (hosting.identity.GuessThrottle)."""

from __future__ import annotations

from hosting.identity import GuessThrottle


def test_the_wait_doubles_after_the_free_answers_and_a_right_one_clears_it() -> None:
    throttle = GuessThrottle(free=3, first_delay=1.0, longest=300.0, forget_after=10_000.0)
    waits = []
    for index in range(12):
        now = 100.0 + index * 400
        throttle.wrong("203.0.113.7", now)
        waits.append(throttle.wait("203.0.113.7", now))
    assert waits == [0.0, 0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 300.0]
    assert throttle.wait("2001:db8::1", 0.0) == 0.0
    throttle.wrong("2001:db8:0:0:aaaa::1", 0.0)
    assert throttle.wait("198.51.100.1", 0.0) == 0.0
    for _ in range(5):
        throttle.wrong("2001:db8::2", 0.0)  # the same /64
    assert throttle.wait("2001:db8::3", 0.0) > 0
    throttle.right("2001:db8::4")
    assert throttle.wait("2001:db8::3", 0.0) == 0.0
