"""Hidden units with no referee leak nothing beyond the rules' exposure (tests/blind_leak_scan.py).

``PBEM_BLIND_LEAK_GAMES`` games (4 by default, a few seconds; every scenario
in turn); ``benchmarks/blind_leaks.py --games 200`` plays more.  Each kind of
leak is also planted, to see the scan report it.
"""

from __future__ import annotations

import math
import os

import pytest

from pbem.loading.datafiles import load_scenario
from pbem.game.modes.blind import exposure as blind
from pbem.protocol import commitment as c
from tests.blind_leak_scan import BlindScan, Recorder, scan_blind_game
from tests.leak_scan import plan

GAMES = int(os.environ.get("PBEM_BLIND_LEAK_GAMES", "4"))


def balanced(scan: BlindScan) -> bool:
    """The ones among every bit of every root and sibling hash received: within 5 standard deviations of half."""
    return abs(scan.ones - scan.bits / 2) <= 5 * math.sqrt(scan.bits) / 2


def test_what_the_american_player_receives_says_no_more_than_the_rules_expose():
    scan = BlindScan()
    for name, policies, seed in plan(GAMES):
        scan_blind_game(scan, load_scenario(name), policies, seed)
    assert scan.leaks == [], "\n".join(scan.leaks)
    assert scan.games == GAMES and scan.openings > 0 and scan.swaps > 0 and scan.guesses > 0
    assert balanced(scan), (scan.ones, scan.bits)


class Leaky(Recorder):
    """Opens, with the honest ones, the first hidden marker the rules do not expose."""

    def open(self, tree, marker):
        return tree.opening(marker)

    def tree(self, seq, state):
        built = super().tree(seq, state)
        self.extra = built
        return built


def test_the_scan_sees_an_opening_the_rules_do_not_demand(monkeypatch):
    real = blind.exposure

    def more(board, before, after, events, side):
        found = real(board, before, after, events, side)
        from pbem.game.modes.blind.exposure import Exposure, hidden_markers

        hidden = sorted(set(hidden_markers(after)) - set(found.after))
        return Exposure(found.side, found.before, {**found.after, **({hidden[0]: "x"} if hidden else {})}, found.claims)

    monkeypatch.setattr(blind, "exposure", more)
    scan = BlindScan()
    scan_blind_game(scan, load_scenario("test-skirmish"), ("greedy", "greedy"), 1)
    assert any("says more than the view" in leak for leak in scan.leaks), scan.leaks


def test_the_scan_sees_an_unchanged_leaf_and_a_guessable_salt(monkeypatch):
    monkeypatch.setattr(c, "marker_salt", lambda secret, *, game, seq, marker: bytes(32))
    scan = BlindScan()
    scan_blind_game(scan, load_scenario("test-skirmish"), ("greedy", "greedy"), 1)
    assert any("a guessed leaf" in leak for leak in scan.leaks), scan.leaks[:3]
    assert any("in another's: an unchanged leaf shows" in leak for leak in scan.leaks), scan.leaks[:3]


def test_the_bit_count_sees_hashes_that_are_not_random():
    scan = BlindScan()
    scan.bits, scan.ones = 256 * 200, 256 * 200 // 2 + 1000
    assert not balanced(scan)
