"""Classic trigger and enrage minions (neutral_classic.py, class_classic_triggers.py)."""

from __future__ import annotations

from hearth_cardtest import atk, card_ids, dead, stats

from games.hearth import scenario as S
from games.hearth.enums import ARMOR, WINDFURY


def test_ex1_044_questing_adventurer_ex1_044e() -> None:
    g = S.prepared()
    quester = S.summon(g, 1, "EX1_044")
    S.play(g, S.give(g, 1, "CS2_231"))  # a minion
    S.play(g, S.give(g, 1, "CS2_025"))  # a spell
    assert stats(g, quester) == (4, 4)
    S.end_turn(g)
    S.play(g, S.give(g, 2, "CS2_231"))  # the opponent's card does not count
    assert stats(g, quester) == (4, 4)


def test_new1_026_violet_teacher() -> None:
    g = S.prepared()
    teacher = S.summon(g, 1, "NEW1_026")
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])
    assert card_ids(g, g.board[1]) == ["NEW1_026", "NEW1_026t"]
    assert stats(g, g.board[1][1]) == (1, 1)
    S.play(g, S.give(g, 1, "CS2_231"))  # minions do not count
    assert len(g.board[1]) == 3 and teacher in g.board[1]


def test_new1_020_wild_pyromancer() -> None:
    g = S.prepared()
    pyro = S.summon(g, 1, "NEW1_020")
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_024"), yeti)  # Frostbolt 3, then 1 to all: the yeti at 1
    assert stats(g, yeti) == (4, 1) and g.health(pyro) == 1
    S.play(g, S.give(g, 1, "CS2_231"))  # a minion is no spell
    assert g.health(pyro) == 1


def test_new1_020_wild_pyromancer_played_by_its_own_spell_does_not_fire() -> None:
    # "After you cast a spell": the Pyromancer in hand when the spell was cast hears nothing.
    g = S.prepared()
    S.play(g, S.give(g, 1, "CS2_025"))
    pyro = S.give(g, 1, "NEW1_020")
    S.play(g, pyro)
    assert g.health(pyro) == 2


def test_ex1_095_gadgetzan_auctioneer() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_095")
    S.play(g, S.give(g, 1, "CS2_025"))
    assert len(g.hand[1]) == 1  # the spell drew a card
    S.play(g, S.give(g, 1, "CS2_231"))
    assert len(g.hand[1]) == 1


def test_tt_004_flesheating_ghoul_tt_004o() -> None:
    g = S.prepared()
    ghoul = S.summon(g, 1, "tt_004")
    S.summon(g, 1, "CS2_231")
    S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_025"))  # Arcane Explosion kills the enemy Wisp
    assert atk(g, ghoul) == 3
    S.play(g, S.give(g, 1, "EX1_400"))  # Whirlwind kills ours (the Ghoul survives at 2)
    assert atk(g, ghoul) == 4 and g.health(ghoul) == 2


def test_ex1_595_cult_master() -> None:
    g = S.prepared()
    master = S.summon(g, 1, "EX1_595")
    S.summon(g, 1, "CS2_231")
    S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_400"))  # both Wisps die: only the friendly one draws
    assert len(g.hand[1]) == 1 and stats(g, master) == (4, 1)
    S.play(g, S.give(g, 1, "EX1_400"))  # the Master itself dying draws nothing
    assert dead(g, master) and len(g.hand[1]) == 1


def test_ex1_029_leper_gnome() -> None:
    g = S.prepared()
    gnome = S.summon(g, 1, "EX1_029")
    S.hit(g, gnome, 1)
    assert dead(g, gnome) and g.health(g.hero[2]) == 28 and g.health(g.hero[1]) == 30


def test_ex1_001_lightwarden_ex1_001e() -> None:
    g = S.prepared(hero1="HERO_09")
    warden = S.summon(g, 1, "EX1_001")
    S.power(g, g.hero[1])  # nothing to heal: no trigger
    assert atk(g, warden) == 1
    yeti = S.summon(g, 2, "CS2_182")
    S.hit(g, yeti, 2)
    S.end_turn(g)
    S.end_turn(g)
    S.power(g, yeti)  # an enemy healed counts too
    assert atk(g, warden) == 3


def test_ex1_412_raging_worgen_ex1_412e() -> None:
    g = S.prepared()
    worgen = S.summon(g, 1, "EX1_412")
    assert stats(g, worgen) == (3, 3) and not g.ents[worgen][WINDFURY]
    S.hit(g, worgen, 1)
    assert stats(g, worgen) == (4, 2) and g.ents[worgen][WINDFURY]
    S.attack(g, worgen, g.hero[2])
    S.attack(g, worgen, g.hero[2])
    assert g.health(g.hero[2]) == 22


def test_ex1_390_tauren_warrior_ex1_390e() -> None:
    g = S.prepared()
    tauren = S.summon(g, 1, "EX1_390")
    S.hit(g, tauren, 1)
    assert stats(g, tauren) == (5, 2)


def test_ex1_509_murloc_tidecaller_ex1_509e() -> None:
    g = S.prepared()
    caller = S.summon(g, 1, "EX1_509")
    S.play(g, S.give(g, 1, "EX1_506"))  # Murloc Tidehunter and its Scout: two Murlocs
    assert atk(g, caller) == 3
    S.summon(g, 2, "CS2_168")  # an enemy Murloc is not "you summon"
    S.summon(g, 1, "CS2_231")  # nor is a Wisp
    assert atk(g, caller) == 3


def test_new1_038_gruul_new1_038o() -> None:
    g = S.prepared()
    gruul = S.summon(g, 1, "NEW1_038")
    S.end_turn(g)
    S.end_turn(g)
    assert stats(g, gruul) == (9, 9)  # the end of each turn, both players'


def test_ex1_597_imp_master() -> None:
    g = S.prepared()
    master = S.summon(g, 1, "EX1_597")
    S.end_turn(g)
    assert card_ids(g, g.board[1]) == ["EX1_597", "EX1_598"] and stats(g, master) == (1, 4)
    S.end_turn(g)  # not at the end of the opponent's turn
    assert len(g.board[1]) == 2


def test_ex1_102_demolisher() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_102")
    S.end_turn(g)
    S.end_turn(g)
    assert g.health(g.hero[2]) == 28  # the only enemy


def test_new1_040_hogger() -> None:
    g = S.prepared()
    S.summon(g, 1, "NEW1_040")
    S.end_turn(g)
    assert card_ids(g, g.board[1]) == ["NEW1_040", "NEW1_040t"]


def test_ex1_249_baron_geddon() -> None:
    g = S.prepared()
    baron = S.summon(g, 1, "EX1_249")
    yeti = S.summon(g, 2, "CS2_182")
    S.end_turn(g)
    assert g.health(baron) == 5 and g.health(yeti) == 3
    assert g.health(g.hero[1]) == 28 and g.health(g.hero[2]) == 28


def test_ex1_298_ragnaros_the_firelord() -> None:
    g = S.prepared()
    rag = S.summon(g, 1, "EX1_298")
    assert not [a for a in g.legal_actions() if a.entity == rag]  # can't attack
    S.end_turn(g)
    assert g.health(g.hero[2]) == 22


def test_ex1_563_malygos() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_563")
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])
    assert g.health(g.hero[2]) == 30 - 11


def test_new1_012_mana_wyrm_new1_012o() -> None:
    g = S.prepared()
    wyrm = S.summon(g, 1, "NEW1_012")
    S.play(g, S.give(g, 1, "CS2_025"))
    S.play(g, S.give(g, 1, "CS2_025"))
    assert stats(g, wyrm) == (3, 3)


def test_ex1_559_archmage_antonidas() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_559")
    S.play(g, S.give(g, 1, "CS2_025"))
    assert card_ids(g, g.hand[1]) == ["CS2_029"]


def test_ex1_531_scavenging_hyena_ex1_531e() -> None:
    g = S.prepared()
    hyena = S.summon(g, 1, "EX1_531")
    boar = S.summon(g, 1, "CS2_171")  # a Beast
    S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_025"))  # nothing friendly hit
    S.end_turn(g)
    S.set_mana(g, 2, 10)
    S.play(g, S.give(g, 2, "CS2_025"))  # Arcane Explosion: Boar and Wisp die, Hyena at 1
    assert dead(g, boar) and stats(g, hyena) == (4, 2)


def test_ex1_402_armorsmith() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_402")
    S.summon(g, 1, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_400"))  # two friendly minions damaged
    assert g.ents[g.hero[1]][ARMOR] == 2


def test_ex1_604_frothing_berserker_ex1_604o() -> None:
    g = S.prepared()
    froth = S.summon(g, 1, "EX1_604")
    S.summon(g, 2, "CS2_182")
    S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_400"))  # three minions damaged, the Berserker among them
    assert stats(g, froth) == (5, 3)
