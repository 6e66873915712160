"""The tournament director (issue 17; RULES.md R-TOUR-1..6; seed 000 "Torneos"; TDA 2022 where both are
silent), pure like the rest of the engine: time, decks and draws come in as arguments.

One concept per module:

* :mod:`~engine.tournament.director` — one tournament's lifecycle, sequencing the others;
* :mod:`~engine.tournament.settings` — what a host declares, checked once;
* :mod:`~engine.tournament.money` — entries, tickets, refunds, overlays: every unit accounted;
* :mod:`~engine.tournament.levels` — blind, ante, big-blind-ante and stud levels, breaks;
* :mod:`~engine.tournament.table` — a tournament table on real :class:`engine.hand.Hand` s;
* :mod:`~engine.tournament.seating` — random seats, TDA balancing and breaking;
* :mod:`~engine.tournament.payouts` — prize tables, tickets, satellites, secondary prizes, ties;
* :mod:`~engine.tournament.bounties` — knockout, progressive, room and PRO bounties;
* :mod:`~engine.tournament.formats` — Sit & Go, MTT, heads-up, shootout, Spin, Fifty50, Double-or-Nothing;
* :mod:`~engine.tournament.icm` and :mod:`~engine.tournament.deals` — ICM and final-table deals;
* :mod:`~engine.tournament.shares` — the one rounding rule for every split;
* :mod:`~engine.tournament.events` — what the director tells the room.
"""
