"""Classic neutral minions with start/end of turn and spell triggers, Gelbin's inventions,
the Power Chords and the Dream Cards (neutral_classic_b.py)."""

from __future__ import annotations

from hearth_cardtest import card_ids, dead, play_targets, stats

from games.hearth import scenario as S


def test_ex1_187_arcane_devourer_ex1_187e_gains_two_two_per_spell() -> None:
    g = S.prepared()
    devourer = S.summon(g, 1, "EX1_187")
    S.play(g, S.give(g, 1, "GAME_005"))
    S.play(g, S.give(g, 1, "GAME_005"))
    assert stats(g, devourer) == (9, 9)
    S.play(g, S.give(g, 1, "CS2_231"))  # a minion is no spell
    S.end_turn(g)
    S.play(g, S.give(g, 2, "GAME_005"))  # nor is the opponent's spell one of yours
    assert stats(g, devourer) == (9, 9)


def test_ex1_557_nat_pagle_draws_an_extra_card_half_of_the_time() -> None:
    drawn = []
    for seed in range(16):
        g = S.prepared(seed=seed)
        S.summon(g, 1, "EX1_557")
        S.end_turn(g)
        S.end_turn(g)  # player 1's turn: Nat Pagle, then the turn's own draw
        drawn.append(len(g.hand[1]))
        assert len(g.hand[2]) == 1  # not on the opponent's turn
    assert set(drawn) == {1, 2}


def test_new1_021_doomsayer_destroys_all_minions_at_the_start_of_your_turn() -> None:
    g = S.prepared()
    doom = S.summon(g, 1, "NEW1_021")
    mine = S.summon(g, 1, "CS2_182")
    S.end_turn(g)
    theirs = S.summon(g, 2, "CS2_200")
    assert not dead(g, doom) and not dead(g, mine)  # not on the opponent's turn start
    S.end_turn(g)
    assert dead(g, doom) and dead(g, mine) and dead(g, theirs)
    assert g.board[1] == [] and g.board[2] == []


def test_new1_037_master_swordsmith_new1_037e_gives_another_friendly_minion_one_attack() -> None:
    g = S.prepared()
    smith = S.summon(g, 1, "NEW1_037")
    raider = S.summon(g, 1, "CS2_168")
    enemy = S.summon(g, 2, "CS2_231")
    S.end_turn(g)
    assert stats(g, raider) == (3, 1) and stats(g, smith) == (1, 3)
    assert stats(g, enemy) == (1, 1)
    S.end_turn(g)  # the opponent's turn end: nothing
    assert stats(g, raider) == (3, 1)
    alone = S.prepared()
    smith2 = S.summon(alone, 1, "NEW1_037")
    S.end_turn(alone)
    assert stats(alone, smith2) == (1, 3)


def test_ex1_112_gelbin_mekkatorque_summons_an_invention() -> None:
    seen = set()
    for seed in range(24):
        g = S.prepared(seed=seed)
        gelbin = S.give(g, 1, "EX1_112")
        S.play(g, gelbin)
        assert len(g.board[1]) == 2 and g.board[1][0] == gelbin
        seen.add(g.ents[g.board[1][1]].card.id)
    assert seen == {"Mekka1", "Mekka2", "Mekka3", "Mekka4"}


def test_mekka1_homing_chicken_destroys_itself_and_draws_three() -> None:
    g = S.prepared()
    chicken = S.summon(g, 1, "Mekka1")
    S.end_turn(g)
    assert not dead(g, chicken)
    S.end_turn(g)
    assert dead(g, chicken) and len(g.hand[1]) == 4  # 3 and the turn's draw


def test_mekka2_repair_bot_restores_six_to_a_damaged_character() -> None:
    g = S.prepared()
    S.summon(g, 1, "Mekka2")
    S.hit(g, g.hero[2], 10)
    S.end_turn(g)
    assert g.health(g.hero[2]) == 26


def test_mekka3_emboldener_3000_mekka3e_gives_a_random_minion_plus_one_plus_one() -> None:
    g = S.prepared()
    bot = S.summon(g, 1, "Mekka3")
    S.end_turn(g)
    assert stats(g, bot) == (1, 5)  # the only minion: itself


def test_mekka4_poultryizer_turns_a_random_minion_into_a_chicken() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    bot = S.summon(g, 1, "Mekka4")
    S.end_turn(g)
    S.end_turn(g)
    chickens = [i for i in (yeti, bot) if g.ents[i].card.id == "Mekka4t"]
    assert len(chickens) == 1 and stats(g, chickens[0]) == (1, 1)


def test_pro_001_elite_tauren_chieftain_gives_both_players_a_power_chord() -> None:
    chords = {"PRO_001a", "PRO_001b", "PRO_001c"}
    seen = set()
    for seed in range(10):
        g = S.prepared(seed=seed)
        S.play(g, S.give(g, 1, "PRO_001"))
        (mine,), (theirs,) = g.hand[1], g.hand[2]
        got = {g.ents[mine].card.id, g.ents[theirs].card.id}
        assert got <= chords
        seen |= got
    assert seen == chords


def test_pro_001a_i_am_murloc_summons_three_four_or_five_murlocs() -> None:
    counts = set()
    for seed in range(16):
        g = S.prepared(seed=seed)
        S.play(g, S.give(g, 1, "PRO_001a"))
        assert set(card_ids(g, g.board[1])) == {"PRO_001at"}
        assert all(stats(g, m) == (1, 1) for m in g.board[1])
        counts.add(len(g.board[1]))
    assert counts == {3, 4, 5}


def test_pro_001b_rogues_do_it_deals_four_and_draws() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_284")  # Spell Damage +1
    S.play(g, S.give(g, 1, "PRO_001b"), g.hero[2])
    assert g.health(g.hero[2]) == 25 and len(g.hand[1]) == 1


def test_pro_001c_power_of_the_horde_summons_a_horde_warrior() -> None:
    horde = {"CS2_121", "EX1_021", "EX1_023", "EX1_110", "EX1_390", "CS2_179"}
    seen = set()
    for seed in range(24):
        g = S.prepared(seed=seed)
        S.play(g, S.give(g, 1, "PRO_001c"))
        (m,) = g.board[1]
        seen.add(g.ents[m].card.id)
    assert seen == horde
    full = S.prepared()
    for _ in range(7):
        S.summon(full, 1, "CS2_231")
    assert play_targets(full, S.give(full, 1, "PRO_001c")) == set()  # needs a free slot


def test_dream_01_laughing_sister_cannot_be_targeted_by_spells() -> None:
    g = S.prepared()
    sister = S.summon(g, 2, "DREAM_01")
    assert sister not in play_targets(g, S.give(g, 1, "CS2_029"))
    assert stats(g, sister) == (3, 5)


def test_dream_02_ysera_awakens_hits_everything_but_ysera() -> None:
    g = S.prepared()
    ysera = S.summon(g, 1, "EX1_572")
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "DREAM_02"))
    assert g.health(ysera) == 12 and dead(g, yeti)
    assert g.health(g.hero[1]) == 25 and g.health(g.hero[2]) == 25


def test_dream_03_emerald_drake_is_a_seven_six() -> None:
    g = S.prepared()
    assert stats(g, S.summon(g, 1, "DREAM_03")) == (7, 6)


def test_dream_05_nightmare_dream_05e_buffs_then_destroys_at_the_casters_next_turn() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "DREAM_05"), yeti)
    assert stats(g, yeti) == (9, 10)
    S.end_turn(g)  # the opponent's turn start: it lives
    assert not dead(g, yeti)
    S.end_turn(g)
    assert dead(g, yeti)
