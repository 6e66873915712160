"""Issue 13 items 6, 7 and 8, the pure parts: the wait imposed on an address after wrong gate answers, which
pending login is dropped when there are too many, and which names read alike."""

from __future__ import annotations

from hosting.identity import GuessThrottle, PendingLogins, address_group, name_skeletons


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


class Handle:
    def __init__(self, label: str) -> None:
        self.label = label


def test_the_oldest_idle_login_of_the_fullest_address_is_dropped_never_the_newcomer() -> None:
    pending = PendingLogins(total=4, per_address=2)
    first, second, third = Handle("a1"), Handle("a2"), Handle("a3")
    assert pending.add(first, "198.51.100.1") == [] and pending.add(second, "198.51.100.1") == []
    pending.authenticating(first)  # a real client got as far as authenticating: idle ones go first
    assert pending.add(third, "198.51.100.1") == [second]
    assert pending.add(Handle("b1"), "203.0.113.9") == []
    assert pending.add(Handle("b2"), "203.0.113.9") == []
    fifth = Handle("c1")
    assert pending.add(fifth, "192.0.2.1") == [third]  # 5 > 4 in all: the oldest idle one of a fullest address
    assert len(pending) == 4 and pending.count("192.0.2.1") == 1
    pending.remove(fifth)
    assert len(pending) == 3


def test_look_alike_names_share_a_skeleton_and_different_ones_do_not() -> None:
    for first, second in [("aIice", "alice"), ("ALICE", "alice"), ("a1ice", "alice"), ("b0b", "bob"),
                          ("rnary", "mary"), ("vvill", "will"), ("Ian", "lan"), ("bo55", "boss"),
                          ("boss_", "boss"), ("_boss", "boss"), ("b.o-s_s", "boss"), ("3ve", "eve"), ("4na", "ana"),
                          ("7om", "tom"), ("8ob", "bob"), ("bot_1", "bot1"), ("bot-l", "bot1")]:
        assert name_skeletons(first) & name_skeletons(second), (first, second)
    for first, second in [("ana", "anna"), ("bob", "rob"), ("alice", "alice2"), ("li", "ll1x")]:
        assert not name_skeletons(first) & name_skeletons(second), (first, second)


def test_an_ipv6_address_counts_with_its_64() -> None:
    assert address_group("2001:db8:1:2:3:4:5:6") == address_group("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert address_group("::ffff:198.51.100.7") == "198.51.100.7"
    assert address_group("198.51.100.7") == "198.51.100.7" and address_group("unknown") == "unknown"


def test_names_that_read_alike_in_capitals_share_a_skeleton() -> None:
    # names are compared without case, and a capital I, a small l and a 1 read alike: 'AL1CE' and 'ALlCE' read
    # as 'ALICE', the registered 'alice' (the skeleton mapped I and 1 to l before lowering: 'allce' ≠ 'alice')
    for first, second in [("AL1CE", "alice"), ("ALlCE", "alice"), ("WlLLIAM", "william"), ("B1LL", "bill")]:
        assert name_skeletons(first) & name_skeletons(second), (first, second)


def test_names_that_differ_in_their_digits_never_look_alike() -> None:
    """Digits are folded to letters, each to its own, never dropped: numbered bots and players stay apart."""
    names = [f"{stem}{number}" for stem in ("bot", "p", "player") for number in range(1, 101)]
    names += [f"bot{number:02}" for number in range(1, 10)] + ["p6", "p9", "bot2", "bot6", "bot9"]
    skeletons: dict[str, str] = {}
    for name in set(names):
        for skeleton in name_skeletons(name):
            assert skeletons.setdefault(skeleton, name) == name, (name, skeletons[skeleton])
