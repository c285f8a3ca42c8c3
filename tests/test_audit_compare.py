"""The audit compares the replay's full state with the sealed one through the state commitment.

The revealed state was checked against the signed commitment first, so the
replay's state matches the sealed one exactly when it matches that
commitment; these tests hold that a replay differing in anything — a value,
a type (``1`` against ``true``), an extra key — is still reported.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pbem.game.replay import AuditReport, _compare
from pbem.protocol.turnfile import SIDES, commit_state, commit_view

NONCE = bytes(range(32))
VIEW_NONCES = {side: bytes([i]) * 32 for i, side in enumerate(SIDES)}
STATE = {"state": {"position": {"turn": 3, "phasing": "US"}, "locations": {"u1": "0101"}}, "last": None}
VIEWS = {side: {"side": side, "seq": 5} for side in SIDES}
PUBLIC = {"turn": 3, "phasing": "US", "over": False}


def _turn():
    return SimpleNamespace(
        public=PUBLIC, state_commitment=commit_state(NONCE, STATE), source="turn-0005.pbem", seq=5,
        view_commitments={side: commit_view(VIEW_NONCES[side], VIEWS[side]) for side in SIDES},
    )


def _findings(referee_state) -> list[str]:
    report = AuditReport()
    step = SimpleNamespace(public=dict(PUBLIC), referee_state=referee_state, views=VIEWS)
    _compare(report, _turn(), step, (STATE, VIEW_NONCES, NONCE))
    return [f.problem for f in report.findings]


def test_the_replay_that_gives_the_sealed_state_passes():
    assert _findings({"last": None, "state": {"locations": {"u1": "0101"}, "position": {"phasing": "US", "turn": 3}}}) == []


@pytest.mark.parametrize("changed", [
    {"state": {"position": {"turn": 3, "phasing": "US"}, "locations": {"u1": "0102"}}, "last": None},
    {"state": {"position": {"turn": True, "phasing": "US"}, "locations": {"u1": "0101"}}, "last": None},
    {**STATE, "extra": 1},
])
def test_a_replay_that_differs_from_the_sealed_state_is_reported(changed):
    assert _findings(changed) == ["the sealed full state is not what the replay gives"]
