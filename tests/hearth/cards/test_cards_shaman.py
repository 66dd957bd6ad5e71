"""Shaman Basic cards, Totemic Call and the basic totems."""

from __future__ import annotations

from hearth_cardtest import atk, can_attack, card_ids, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import ATTACHED, FROZEN, SPELLPOWER, TAUNT, WINDFURY
from games.hearth.game import State


def attached(g: State, eid: int) -> list[str]:
    return [g.ents[i].card.id for i in g.enchants if g.ents[i][ATTACHED] == eid]


def test_hero_02bp_totemic_call() -> None:
    g = S.prepared(hero1="HERO_02")
    S.power(g)
    assert g.mana(1) == 8 and len(g.board[1]) == 1
    assert card_ids(g, g.board[1])[0] in ("CS2_050", "CS2_051", "CS2_052", "NEW1_009")


def test_cs2_050_searing_totem() -> None:
    g = S.prepared()
    t = S.summon(g, 1, "CS2_050")
    assert stats(g, t) == (1, 1)


def test_cs2_051_stoneclaw_totem() -> None:
    g = S.prepared()
    t = S.summon(g, 1, "CS2_051")
    assert stats(g, t) == (0, 2) and g.ents[t][TAUNT] == 1


def test_cs2_052_wrath_of_air_totem() -> None:
    g = S.prepared()
    t = S.summon(g, 1, "CS2_052")
    assert stats(g, t) == (0, 2) and g.ents[t][SPELLPOWER] == 1 and g.spell_damage(1) == 1


def test_new1_009_healing_totem() -> None:
    g = S.prepared()
    S.summon(g, 1, "NEW1_009")
    yeti, theirs = S.summon(g, 1, "CS2_182"), S.summon(g, 2, "CS2_182")
    S.hit(g, yeti, 3)
    S.hit(g, theirs, 3)
    S.hit(g, g.hero[1], 3)
    S.end_turn(g)
    assert g.health(yeti) == 3 and g.health(theirs) == 2 and g.health(g.hero[1]) == 27
    S.end_turn(g)  # the opponent's turn end: not this totem's
    assert g.health(yeti) == 3


def test_cs2_037_frost_shock() -> None:
    g = S.prepared()
    mine, theirs = S.summon(g, 1, "CS2_182"), S.summon(g, 2, "CS2_182")
    fs = S.give(g, 1, "CS2_037")
    assert play_targets(g, fs) == {g.hero[2], theirs}  # enemy characters only
    S.play(g, fs, g.hero[2])
    assert g.health(g.hero[2]) == 29 and g.ents[g.hero[2]][FROZEN] == 1
    S.summon(g, 1, "CS2_142")
    S.play(g, S.give(g, 1, "CS2_037"), theirs)
    assert stats(g, theirs) == (4, 3) and g.ents[theirs][FROZEN] == 1 and mine


def test_cs2_039_windfury() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    wf = S.give(g, 1, "CS2_039")
    assert g.hero[2] not in play_targets(g, wf)
    S.play(g, wf, yeti)
    assert g.ents[yeti][WINDFURY] == 1
    S.attack(g, yeti, g.hero[2])
    S.attack(g, yeti, g.hero[2])
    assert g.health(g.hero[2]) == 22 and not can_attack(g, yeti)
    S.play(g, S.give(g, 1, "EX1_332"), yeti)
    assert g.ents[yeti][WINDFURY] == 0


def test_cs2_041_ancestral_healing() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    S.hit(g, yeti, 4)
    ah = S.give(g, 1, "CS2_041")
    assert g.hero[1] not in play_targets(g, ah)
    S.play(g, ah, yeti)
    assert stats(g, yeti) == (4, 5) and g.ents[yeti][TAUNT] == 1
    assert attached(g, yeti) == ["CS2_041e"]


def test_cs2_041e_ancestral_infusion() -> None:
    g = S.prepared()
    wisp = S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_041"), wisp)  # any minion, an undamaged one too
    assert g.ents[wisp][TAUNT] == 1 and attached(g, wisp) == ["CS2_041e"]
    S.play(g, S.give(g, 1, "EX1_332"), wisp)
    assert g.ents[wisp][TAUNT] == 0 and attached(g, wisp) == []


def test_cs2_042_fire_elemental() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    fe = S.give(g, 1, "CS2_042")
    assert g.hero[2] in play_targets(g, fe)
    S.summon(g, 1, "CS2_142")
    S.play(g, fe, yeti)
    assert stats(g, yeti) == (4, 2)  # a battlecry: no spell damage
    assert g.mana(1) == 4
    g2 = S.prepared()
    fe2 = S.give(g2, 1, "CS2_042")
    assert play_targets(g2, fe2) == {g2.hero[1], g2.hero[2]}  # a hero is always there
    S.play(g2, fe2, g2.hero[2])
    assert stats(g2, fe2) == (6, 5) and g2.health(g2.hero[2]) == 27


def test_cs2_045_rockbiter_weapon() -> None:
    g = S.prepared(hero1="HERO_02")
    mine, theirs = S.summon(g, 1, "CS2_182"), S.summon(g, 2, "CS2_182")
    rb = S.give(g, 1, "CS2_045")
    assert play_targets(g, rb) == {g.hero[1], mine}
    S.play(g, rb, g.hero[1])
    S.attack(g, g.hero[1], theirs)
    assert g.health(theirs) == 2 and g.health(g.hero[1]) == 26 and theirs


def test_cs2_045e_rockbiter_weapon() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_045"), yeti)
    assert atk(g, yeti) == 7 and attached(g, yeti) == ["CS2_045e"]
    S.end_turn(g)
    assert atk(g, yeti) == 4 and attached(g, yeti) == []


def test_cs2_046_bloodlust() -> None:
    g = S.prepared()
    a, b = S.summon(g, 1, "CS2_182"), S.summon(g, 1, "CS2_231")
    theirs = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_046"))
    assert atk(g, a) == 7 and atk(g, b) == 4 and atk(g, theirs) == 4 and g.mana(1) == 5


def test_cs2_046e_bloodlust() -> None:
    g = S.prepared()
    a = S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_046"))
    assert attached(g, a) == ["CS2_046e"]
    S.end_turn(g)
    assert atk(g, a) == 1 and attached(g, a) == []


def test_ex1_244_totemic_might() -> None:
    g = S.prepared()
    totem, wisp = S.summon(g, 1, "CS2_050"), S.summon(g, 1, "CS2_231")
    theirs = S.summon(g, 2, "CS2_051")
    S.play(g, S.give(g, 1, "EX1_244"))
    assert stats(g, totem) == (1, 3) and stats(g, wisp) == (1, 1) and stats(g, theirs) == (0, 2)


def test_ex1_244e_totemic_might() -> None:
    g = S.prepared()
    ft = S.summon(g, 1, "EX1_565")
    S.play(g, S.give(g, 1, "EX1_244"))
    assert attached(g, ft) == ["EX1_244e"] and stats(g, ft) == (0, 5)
    S.end_turn(g)
    assert stats(g, ft) == (0, 5)  # permanent


def test_ex1_246_hex() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_037"), yeti)
    hex_ = S.give(g, 1, "EX1_246")
    assert g.hero[2] not in play_targets(g, hex_)
    S.play(g, hex_, yeti)
    assert g.ents[yeti].card.id == "hexfrog" and stats(g, yeti) == (0, 1)
    assert g.ents[yeti][TAUNT] == 1 and g.ents[yeti][FROZEN] == 0


def test_hexfrog_frog() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_246"), yeti)
    S.end_turn(g)
    boar = S.summon(g, 1, "CS2_171")
    S.end_turn(g)
    S.end_turn(g)
    assert boar and g.ents[yeti][TAUNT] == 1 and stats(g, yeti) == (0, 1)


def test_ex1_565_flametongue_totem() -> None:
    g = S.prepared()
    a = S.summon(g, 1, "CS2_231")
    far = S.summon(g, 1, "CS2_231", position=0)
    ft = S.give(g, 1, "EX1_565")
    S.play(g, ft, position=2)  # far, a, totem
    assert atk(g, a) == 3 and atk(g, far) == 1 and atk(g, ft) == 0
    b = S.summon(g, 1, "CS2_231")
    assert atk(g, b) == 3


def test_ex1_565o_flametongue() -> None:
    g = S.prepared()
    a = S.summon(g, 1, "CS2_231")
    ft = S.summon(g, 1, "EX1_565")
    assert atk(g, a) == 3
    S.play(g, S.give(g, 1, "CS2_029"), ft)
    assert dead(g, ft) and atk(g, a) == 1


def test_ex1_587_windspeaker() -> None:
    g = S.prepared()
    yeti, theirs = S.summon(g, 1, "CS2_182"), S.summon(g, 2, "CS2_182")
    ws = S.give(g, 1, "EX1_587")
    assert play_targets(g, ws) == {yeti}
    S.play(g, ws, yeti)
    assert g.ents[yeti][WINDFURY] == 1 and g.ents[theirs][WINDFURY] == 0
    g2 = S.prepared()
    ws2 = S.give(g2, 1, "EX1_587")
    assert play_targets(g2, ws2) == {0}
    S.play(g2, ws2)
    assert stats(g2, ws2) == (3, 3) and g2.ents[ws2][WINDFURY] == 0
