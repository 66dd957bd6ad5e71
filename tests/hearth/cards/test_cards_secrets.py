"""Classic secrets, one scenario per card (their rules: tests/hearth/test_rules_secrets.py).

Each scenario: player 1 plays the secret, ends the turn, and player 2 does what sets it off.
"""

from __future__ import annotations

from hearth_cardtest import card_ids, dead, stats

from games.hearth import scenario as S
from games.hearth.enums import ARMOR, Z_GRAVEYARD, Z_SECRET, ZONE
from games.hearth.game import State


def armed(card_id: str, hero1: str = "HERO_08") -> tuple[State, int]:
    """Player 1 has played ``card_id``; it is player 2's turn with 10 mana."""
    g = S.prepared(hero1=hero1)
    secret = S.give(g, 1, card_id)
    S.play(g, secret)
    S.end_turn(g)
    S.set_mana(g, 2, 10)
    return g, secret


def gone(g: State, secret: int) -> bool:
    return g.ents[secret][ZONE] == Z_GRAVEYARD and secret not in g.secrets[1]


def test_ex1_287_counterspell() -> None:
    g, secret = armed("EX1_287")
    fireball = S.give(g, 2, "CS2_029")
    S.play(g, fireball, g.hero[1])
    assert gone(g, secret) and g.health(g.hero[1]) == 30
    assert g.mana(2) == 6 and g.ents[fireball][ZONE] == Z_GRAVEYARD  # the cost is lost
    S.play(g, S.give(g, 2, "CS2_029"), g.hero[1])  # only the first spell is countered
    assert g.health(g.hero[1]) == 24


def test_ex1_287_counterspell_stops_cast_triggers_but_not_play_triggers() -> None:
    # The countered spell was played (Questing Adventurer grows) but never cast (Mana
    # Wyrm and Violet Teacher hear nothing): the secret resolves before them.
    g, secret = armed("EX1_287")
    wyrm = S.summon(g, 2, "NEW1_012")
    teacher = S.summon(g, 2, "NEW1_026")
    quester = S.summon(g, 2, "EX1_044")
    S.play(g, S.give(g, 2, "CS2_025"))
    assert gone(g, secret) and stats(g, wyrm) == (1, 3) and stats(g, quester) == (3, 3)
    assert g.board[2] == [wyrm, teacher, quester]


def test_ex1_287_counterspell_ignores_minions() -> None:
    g, secret = armed("EX1_287")
    S.play(g, S.give(g, 2, "CS2_189"), g.hero[1])  # Elven Archer's battlecry is no spell
    assert g.ents[secret][ZONE] == Z_SECRET and g.health(g.hero[1]) == 29


def test_ex1_289_ice_barrier() -> None:
    g, secret = armed("EX1_289")
    yeti = S.summon(g, 2, "CS2_182")
    S.attack(g, yeti, g.hero[1])
    assert gone(g, secret) and g.ents[g.hero[1]][ARMOR] == 4 and g.health(g.hero[1]) == 30


def test_ex1_289_ice_barrier_not_when_a_minion_is_attacked() -> None:
    g, secret = armed("EX1_289")
    mine = S.summon(g, 1, "CS2_182")
    S.attack(g, S.summon(g, 2, "CS2_182"), mine)
    assert g.ents[secret][ZONE] == Z_SECRET


def test_ex1_294_mirror_entity() -> None:
    g, secret = armed("EX1_294")
    yeti = S.give(g, 2, "CS2_182")
    S.play(g, yeti)
    assert gone(g, secret) and card_ids(g, g.board[1]) == ["CS2_182"]
    assert stats(g, g.board[1][0]) == (4, 5)


def test_ex1_294_mirror_entity_copies_buffs() -> None:
    g, _ = armed("EX1_294")
    cleric = S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 2, "EX1_019"), cleric)  # Shattered Sun Cleric buffs the Wisp
    (copy,) = g.board[1]
    assert g.ents[copy].card.id == "EX1_019" and stats(g, copy) == (3, 2)


def test_ex1_294_mirror_entity_waits_with_a_full_board() -> None:
    g, secret = armed("EX1_294")
    for _ in range(7):
        S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 2, "CS2_182"))
    assert g.ents[secret][ZONE] == Z_SECRET


def test_tt_010_spellbender() -> None:
    g, secret = armed("tt_010")
    mine = S.summon(g, 1, "CS2_182")
    S.play(g, S.give(g, 2, "CS2_029"), mine)
    assert gone(g, secret) and stats(g, mine) == (4, 5)
    assert card_ids(g, g.board[1]) == ["CS2_182"]  # the 1/3 took 6 and died
    assert len(g.board[1]) == 1


def test_tt_010_spellbender_not_for_a_spell_on_a_hero() -> None:
    g, secret = armed("tt_010")
    S.play(g, S.give(g, 2, "CS2_029"), g.hero[1])
    assert g.ents[secret][ZONE] == Z_SECRET and g.health(g.hero[1]) == 24


def test_tt_010_spellbender_takes_a_buff_meant_for_the_enemy_minion() -> None:
    g, secret = armed("tt_010")
    theirs = S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 2, "CS2_092"), theirs)  # Blessing of Kings
    (bender,) = g.board[1]
    assert gone(g, secret) and stats(g, bender) == (5, 7) and stats(g, theirs) == (1, 1)


def test_ex1_594_vaporize() -> None:
    g, secret = armed("EX1_594")
    yeti = S.summon(g, 2, "CS2_182")
    S.attack(g, yeti, g.hero[1])
    assert gone(g, secret) and dead(g, yeti) and g.health(g.hero[1]) == 30


def test_ex1_594_vaporize_ignores_a_hero_attack() -> None:
    g = S.prepared(hero2="HERO_01")
    secret = S.give(g, 1, "EX1_594")
    S.play(g, secret)
    S.end_turn(g)
    S.set_mana(g, 2, 10)
    S.play(g, S.give(g, 2, "CS2_106"))  # Fiery War Axe
    S.attack(g, g.hero[2], g.hero[1])
    assert g.ents[secret][ZONE] == Z_SECRET and g.health(g.hero[1]) == 27


def test_ex1_610_explosive_trap() -> None:
    g, secret = armed("EX1_610", hero1="HERO_05")
    S.summon(g, 1, "CS2_142")  # Spell Damage +1: 3 to each enemy
    yeti = S.summon(g, 2, "CS2_182")
    wisp = S.summon(g, 2, "CS2_231")
    S.attack(g, yeti, g.hero[1])
    assert gone(g, secret) and dead(g, wisp) and g.health(g.hero[2]) == 27
    assert g.health(yeti) == 2 and g.health(g.hero[1]) == 26


def test_ex1_533_misdirection() -> None:
    g, secret = armed("EX1_533", hero1="HERO_05")
    yeti = S.summon(g, 2, "CS2_182")
    S.attack(g, yeti, g.hero[1])
    # The only other character is player 2's own hero.
    assert gone(g, secret) and g.health(g.hero[1]) == 30 and g.health(g.hero[2]) == 26


def test_ex1_533_misdirection_picks_among_all_other_characters() -> None:
    hit = set()
    for seed in range(20):
        g = S.prepared(hero1="HERO_05", seed=seed)
        S.play(g, S.give(g, 1, "EX1_533"))
        mine = S.summon(g, 1, "CS2_182")
        S.end_turn(g)
        yeti = S.summon(g, 2, "CS2_182")
        other = S.summon(g, 2, "CS2_200")
        S.attack(g, yeti, g.hero[1])
        assert g.health(g.hero[1]) == 30
        hit |= {i for i in (mine, other, g.hero[2]) if g.health(i) < g.ents[i].card.health
                or (i == g.hero[2] and g.health(i) < 30)}
    assert len(hit) == 3


def test_ex1_554_snake_trap() -> None:
    g, secret = armed("EX1_554", hero1="HERO_05")
    mine = S.summon(g, 1, "CS2_182")
    S.attack(g, S.summon(g, 2, "CS2_231"), mine)
    assert gone(g, secret) and card_ids(g, g.board[1]) == ["CS2_182"] + ["EX1_554t"] * 3
    assert all(stats(g, i) == (1, 1) for i in g.board[1][1:])


def test_ex1_554_snake_trap_not_when_the_hero_is_attacked() -> None:
    g, secret = armed("EX1_554", hero1="HERO_05")
    S.attack(g, S.summon(g, 2, "CS2_231"), g.hero[1])
    assert g.ents[secret][ZONE] == Z_SECRET


def test_ex1_609_snipe() -> None:
    g, secret = armed("EX1_609", hero1="HERO_05")
    yeti = S.give(g, 2, "CS2_182")
    S.play(g, yeti)
    assert gone(g, secret) and stats(g, yeti) == (4, 1)


def test_ex1_609_snipe_ignores_a_summoned_token() -> None:
    g, secret = armed("EX1_609", hero1="HERO_05")
    S.play(g, S.give(g, 2, "CS2_196"))  # Razorfen Hunter: Snipe hits it, not the Boar
    assert gone(g, secret)
    (boar,) = g.board[2]  # the Hunter (2/3) took 4 and died
    assert g.ents[boar].card.id == "CS2_boar" and stats(g, boar) == (1, 1)


def test_ex1_130_noble_sacrifice() -> None:
    g, secret = armed("EX1_130", hero1="HERO_04")
    yeti = S.summon(g, 2, "CS2_182")
    S.attack(g, yeti, g.hero[1])
    assert gone(g, secret) and g.health(g.hero[1]) == 30
    assert g.board[1] == [] and g.health(yeti) == 3  # the 2/1 Defender hit back and died


def test_ex1_130_noble_sacrifice_also_guards_minions() -> None:
    g, secret = armed("EX1_130", hero1="HERO_04")
    mine = S.summon(g, 1, "CS2_231")
    S.attack(g, S.summon(g, 2, "CS2_182"), mine)
    assert gone(g, secret) and stats(g, mine) == (1, 1)


def test_ex1_136_redemption() -> None:
    g, secret = armed("EX1_136", hero1="HERO_04")
    mine = S.summon(g, 1, "CS2_182")
    S.play(g, S.give(g, 2, "CS2_029"), mine)
    assert gone(g, secret) and dead(g, mine)
    (back,) = g.board[1]
    assert g.ents[back].card.id == "CS2_182" and stats(g, back) == (4, 1)
