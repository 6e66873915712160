"""Play-money bankroll (R-PLAY-1): opening credits, refills refused at 50+, granted 2 h later, 2 a day."""

from __future__ import annotations

import pytest

from engine.bankroll import PlayMoneyAccount, PlayMoneyPolicy, RefillArrived
from engine.errors import BankrollError

HOUR = 3600.0
DAY = 24 * HOUR


def broke_account(balance: int = 40, policy: PlayMoneyPolicy | None = None) -> PlayMoneyAccount:
    account = PlayMoneyAccount.open("ana", policy or PlayMoneyPolicy())
    account.withdraw(account.balance - balance)
    return account


def test_new_account_gets_1000_credits_and_a_guest_500():
    policy = PlayMoneyPolicy()
    assert PlayMoneyAccount.open("ana", policy).balance == 1_000
    guest = PlayMoneyAccount.open("guest-7", policy, guest=True)
    assert guest.balance == 500
    assert guest.opened_event(guest=True).credits == 500


def test_refill_refused_at_50_credits_or_more_with_the_reason():
    account = broke_account(50)
    with pytest.raises(BankrollError, match="fewer than 50 credits; ana has 50"):
        account.request_refill(now=0.0)
    assert account.pending_refills == [] and account.refill_requests == [] and account.balance == 50
    assert not account.can_request_refill(now=0.0)


def test_chips_at_tables_count_toward_the_50_limit():
    account = broke_account(10)
    with pytest.raises(BankrollError, match="10 in the account, 40 at tables"):
        account.request_refill(now=0.0, chips_at_tables=40)
    assert account.can_request_refill(now=0.0, chips_at_tables=39)


def test_refill_of_150_arrives_two_hours_after_asking_not_before():
    account = broke_account(49)
    requested = account.request_refill(now=1_000.0)
    assert (requested.amount, requested.arrives_at) == (150, 1_000.0 + 2 * HOUR)
    assert account.next_refill_at() == 1_000.0 + 2 * HOUR
    assert account.collect_refills(now=1_000.0 + 2 * HOUR - 0.5) == []
    assert account.balance == 49
    assert account.collect_refills(now=1_000.0 + 2 * HOUR) == [RefillArrived("ana", 150, 199)]
    assert account.balance == 199 and account.next_refill_at() is None
    assert account.collect_refills(now=1_000.0 + 3 * HOUR) == []


def test_second_refill_refused_while_the_first_is_on_its_way():
    account = broke_account(0)
    account.request_refill(now=0.0)
    with pytest.raises(BankrollError, match="already on its way"):
        account.request_refill(now=60.0)


def test_at_most_two_refills_a_day_then_allowed_again_24_hours_after_the_first():
    account = broke_account(0)
    account.request_refill(now=0.0)
    account.collect_refills(now=2 * HOUR)
    account.withdraw(150)
    account.request_refill(now=3 * HOUR)
    account.collect_refills(now=5 * HOUR)
    account.withdraw(150)
    assert account.refills_left_today(now=6 * HOUR) == 0
    with pytest.raises(BankrollError, match=r"at most 2 refills a day; the next may be asked for at 86400 s"):
        account.request_refill(now=6 * HOUR)
    assert account.balance == 0 and len(account.refill_requests) == 2
    assert account.request_refill(now=DAY + 1).arrives_at == DAY + 1 + 2 * HOUR
    assert account.refills_left_today(now=DAY + 2) == 0  # the one at 3 h is still inside the window
    assert account.refills_left_today(now=DAY + 3 * HOUR + 1) == 1


def test_policy_numbers_are_settings():
    policy = PlayMoneyPolicy(refill_amount=300, refill_allowed_below=100, refill_delay_seconds=60,
                             max_refills_per_day=1)
    account = broke_account(99, policy)
    assert account.request_refill(now=0.0).arrives_at == 60
    assert account.collect_refills(now=60)[0].balance == 399
    account.withdraw(300)
    with pytest.raises(BankrollError, match="at most 1 refills a day"):
        account.request_refill(now=120)


def test_withdraw_more_than_the_balance_is_refused_unchanged():
    account = PlayMoneyAccount.open("ana", PlayMoneyPolicy(), guest=True)
    with pytest.raises(BankrollError, match="ana has 500 credits; cannot take 501"):
        account.withdraw(501)
    with pytest.raises(BankrollError, match="whole number"):
        account.withdraw(0)
    with pytest.raises(BankrollError, match="whole number"):
        account.deposit(-5)
    assert account.balance == 500
    assert account.deposit(25).balance == 525


def test_bad_policy_is_refused():
    with pytest.raises(ValueError, match="refill_amount"):
        PlayMoneyPolicy(refill_amount=-1)
