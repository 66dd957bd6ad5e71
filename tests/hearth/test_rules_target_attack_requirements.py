"""Rule tests: REQ_TARGET_MAX_ATTACK, REQ_TARGET_MIN_ATTACK, REQ_UNDAMAGED_TARGET."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import PlayReq


def _targets(reqs: dict[PlayReq, int]) -> tuple[set[int], int, int, int]:
    g = S.prepared()
    small, big = S.summon(g, 2, "CS2_172"), S.summon(g, 2, "CS2_186")  # 3/2 and 7/7
    hurt = S.summon(g, 1, "CS2_182")
    g.damage(g.hero[2], hurt, 1)
    base = {PlayReq.REQ_TARGET_TO_PLAY: 0, PlayReq.REQ_MINION_TARGET: 0}
    got = set(g._targets(1, {int(k): v for k, v in {**base, **reqs}.items()}, 0))
    return got, small, big, hurt


def test_max_attack_is_inclusive() -> None:
    got, small, _b, _h = _targets({PlayReq.REQ_TARGET_MAX_ATTACK: 3})
    assert got == {small}
    got, small, _big, hurt = _targets({PlayReq.REQ_TARGET_MAX_ATTACK: 4})
    assert got == {small, hurt}


def test_min_attack_is_inclusive() -> None:
    got, _s, big, hurt = _targets({PlayReq.REQ_TARGET_MIN_ATTACK: 4})
    assert got == {big, hurt}
    got, _small, big, hurt = _targets({PlayReq.REQ_TARGET_MIN_ATTACK: 5})
    assert got == {big}


def test_undamaged_excludes_damaged_minions() -> None:
    got, small, big, _hurt = _targets({PlayReq.REQ_UNDAMAGED_TARGET: 0})
    assert got == {small, big}
