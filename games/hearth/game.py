"""The game engine: entities and zones, the real step machine, combat, deaths and auras.

One :class:`State` is one game. It owns every entity (game = 1, players = 2 and 3, cards
from 4 in creation order), the zone lists (ids), the trigger index (event type -> listener
ids, in order of play), the active auras and a seeded RNG whose state is one int, so
:meth:`State.clone` is a handful of dict and list copies.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, NamedTuple

from .actions import END_TURN, Action, IllegalAction, Kind
from .carddb import Card, load_cards, pseudo_card
from .entity import Entity
from .enums import (
    ARMOR,
    ATK,
    ATTACHED,
    CHARGE,
    CONTROLLER,
    COST,
    CREATOR,
    CURRENT_PLAYER,
    DAMAGE,
    DEATHRATTLE,
    DIVINE_SHIELD,
    DURABILITY,
    ENRAGED,
    ENTITY_ID,
    EXHAUSTED,
    FATIGUE,
    FIRST_PLAYER,
    FROZEN,
    HEALTH,
    HERO_ENTITY,
    HERO_POWER_ENTITY,
    MAX_BOARD,
    MAX_HAND,
    MAX_MANA,
    MAXHANDSIZE,
    MAXRESOURCES,
    MULLIGAN_STATE,
    NEXT_STEP,
    NUM_ATTACKS_THIS_TURN,
    ONE_TURN_EFFECT,
    PLAYER_ID,
    PLAYSTATE,
    RESOURCES,
    RESOURCES_USED,
    SCRIPT_DATA_NUM_1,
    SILENCED,
    SPELLPOWER,
    STARTHANDSIZE,
    STATE,
    STEP,
    T_GAME,
    T_HERO,
    T_MINION,
    T_PLAYER,
    T_SPELL,
    T_WEAPON,
    TAUNT,
    TEAM_ID,
    TEMP_RESOURCES,
    TO_BE_DESTROYED,
    TURN,
    WINDFURY,
    Z_DECK,
    Z_GRAVEYARD,
    Z_HAND,
    Z_PLAY,
    ZONE,
    ZONE_POSITION,
    BlockType,
    MetaDataType,
    Mulligan,
    PlayReq,
    PlayState,
    Step,
)
from .enums import (
    State as GameState,
)
from .history import History
from .primitives import Ctx
from .rng import SplitMix64
from .script import EV_DAMAGED, EV_HEALED, EV_SUMMONED, EV_TURN_END, EV_TURN_START, Aura

COIN = "GAME_005"
_MAIN_ACTION = int(Step.MAIN_ACTION)
_PLAY, _POWER, _ATTACK = Kind.PLAY, Kind.POWER, Kind.ATTACK
_NO_TARGET = (0,)
_new = tuple.__new__  # builds an Action without NamedTuple's argument handling
MULLIGAN_INPUT = int(Mulligan.INPUT)
MULLIGAN_DONE = int(Mulligan.DONE)
_PLAYING, _WON, _LOST, _TIED = (
    int(PlayState.PLAYING),
    int(PlayState.WON),
    int(PlayState.LOST),
    int(PlayState.TIED),
)
_CONCEDED = int(PlayState.CONCEDED)
B_ATTACK, B_POWER, B_TRIGGER, B_DEATHS, B_PLAY, B_FATIGUE = (
    int(BlockType.ATTACK),
    int(BlockType.POWER),
    int(BlockType.TRIGGER),
    int(BlockType.DEATHS),
    int(BlockType.PLAY),
    int(BlockType.FATIGUE),
)
M_DAMAGE, M_HEALING, M_TARGET = (
    int(MetaDataType.DAMAGE),
    int(MetaDataType.HEALING),
    int(MetaDataType.TARGET),
)
REQ_MINION = int(PlayReq.REQ_MINION_TARGET)
REQ_FRIENDLY = int(PlayReq.REQ_FRIENDLY_TARGET)
REQ_ENEMY = int(PlayReq.REQ_ENEMY_TARGET)
REQ_DAMAGED = int(PlayReq.REQ_DAMAGED_TARGET)
REQ_NONSELF = int(PlayReq.REQ_NONSELF_TARGET)
REQ_HERO = int(PlayReq.REQ_HERO_TARGET)
REQ_SLOTS = int(PlayReq.REQ_NUM_MINION_SLOTS)
REQ_WEAPON = int(PlayReq.REQ_WEAPON_EQUIPPED)
# Tags Silence resets (the card's printed keywords and everything enchantments gave).
SILENCE_CLEARS = (TAUNT, DIVINE_SHIELD, CHARGE, WINDFURY, SPELLPOWER, DEATHRATTLE, ENRAGED, FROZEN)
# Own tags a transform keeps (the rest is rebuilt from the new card).
KEEP_ON_TRANSFORM = (ZONE, ZONE_POSITION, CONTROLLER, ENTITY_ID)


class Result(NamedTuple):
    """How a finished game ended: ``winner`` is 1, 2 or 0 for a draw."""

    winner: int
    reason: str
    playstates: tuple[int, int]


class AuraInstance:
    """An aura in play: its source, its declaration and the entities it currently buffs."""

    __slots__ = ("applied", "defn", "source")

    def __init__(self, source: int, defn: Aura, applied: tuple[int, ...] = ()) -> None:
        self.source = source
        self.defn = defn
        self.applied = applied


class State:
    """A game of the Hearthstone-like engine; create it with :func:`games.hearth.new_game`."""

    __slots__ = (
        "_legal",
        "aura_dirty",
        "auras",
        "board",
        "coin",
        "current",
        "deck",
        "enchants",
        "ents",
        "hand",
        "hero",
        "hist",
        "maybe_dead",
        "next_id",
        "next_order",
        "over",
        "power",
        "queue",
        "reason",
        "rng",
        "step",
        "triggers",
        "turn_cap",
        "weapon",
        "winner",
    )

    def __init__(self) -> None:
        self.ents: dict[int, Entity] = {}
        self.next_id = 1
        self.next_order = 1
        self.rng = SplitMix64(0)
        self.hand: list[list[int]] = [[], [], []]
        self.deck: list[list[int]] = [[], [], []]
        self.board: list[list[int]] = [[], [], []]
        self.hero = [0, 0, 0]
        self.power = [0, 0, 0]
        self.weapon = [0, 0, 0]
        self.coin = 0
        self.triggers: dict[int, list[int]] = {}
        self.auras: list[AuraInstance] = []
        self.enchants: list[int] = []
        self.queue: list[tuple[int, Any, int]] = []
        self.aura_dirty = False
        self.maybe_dead = False  # something took damage or was destroyed: run a death phase
        self.hist: History | None = None
        self.turn_cap: int | None = None
        self.current = 0
        self.step = 0
        self.over = False
        self.winner = -1
        self.reason = ""
        self._legal: list[Action] | None = None

    # ------------------------------------------------------------------ creation

    @classmethod
    def create(
        cls,
        seed: int,
        decks: Sequence[tuple[str, Sequence[str]]],
        shuffle: bool = True,
        history: bool = False,
        turn_cap: int | None = None,
        first_player: int | None = None,
    ) -> State:
        cards = load_cards()
        if not isinstance(seed, int):
            raise ValueError("seed must be an int")
        if not isinstance(decks, (list, tuple)) or len(decks) != 2:
            raise ValueError("decks must hold two (hero card id, [card ids]) pairs")
        for pair in decks:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise ValueError("each deck is a (hero card id, [card ids]) pair")
            hero_id, deck = pair
            hero = cards.get(hero_id) if isinstance(hero_id, str) else None
            if hero is None or hero.type != T_HERO:
                raise ValueError(f"unknown hero {hero_id!r}")
            if not isinstance(deck, (list, tuple)) or len(deck) > 60:
                raise ValueError("a deck is a list of at most 60 card ids")
            for cid in deck:
                c = cards.get(cid) if isinstance(cid, str) else None
                if c is None or not c.collectible or c.type not in (T_MINION, T_SPELL, T_WEAPON):
                    raise ValueError(f"unknown or unplayable card {cid!r}")
        if turn_cap is not None and (not isinstance(turn_cap, int) or turn_cap < 1):
            raise ValueError("turn_cap must be a positive int or None")
        if first_player not in (None, 1, 2):
            raise ValueError("first_player must be 1, 2 or None")
        g = cls()
        g.rng = SplitMix64(seed)
        g.turn_cap = turn_cap
        if history:
            g.hist = History()
        game = Entity(
            1,
            pseudo_card(T_GAME),
            {
                ENTITY_ID: 1,
                ZONE: Z_PLAY,
                STATE: int(GameState.RUNNING),
                TURN: 0,
                STEP: 0,
                NEXT_STEP: int(Step.BEGIN_FIRST),
            },
        )
        g.ents[1] = game
        for p in (1, 2):
            g.ents[1 + p] = Entity(
                1 + p,
                pseudo_card(T_PLAYER),
                {
                    ENTITY_ID: 1 + p,
                    PLAYER_ID: p,
                    TEAM_ID: p,
                    CONTROLLER: p,
                    ZONE: Z_PLAY,
                    PLAYSTATE: _PLAYING,
                    MAXHANDSIZE: MAX_HAND,
                    STARTHANDSIZE: 4,
                    MAXRESOURCES: MAX_MANA,
                    RESOURCES: 0,
                    RESOURCES_USED: 0,
                    TEMP_RESOURCES: 0,
                    FATIGUE: 0,
                    CURRENT_PLAYER: 0,
                    FIRST_PLAYER: 0,
                },
            )
        g.next_id = 4
        if g.hist is not None:
            g.hist.create_game(g.ents[1], (g.ents[2], g.ents[3]))
        for p in (1, 2):
            hero_card = cards[decks[p - 1][0]]
            hero = g._create(hero_card, p, Z_PLAY)
            g.hero[p] = hero.id
            g._set(g.ents[1 + p], HERO_ENTITY, hero.id)
            power = g._create(cards[hero_card.hero_power], p, Z_PLAY)
            g.power[p] = power.id
            g._set(g.ents[1 + p], HERO_POWER_ENTITY, power.id)
        for p in (1, 2):
            listed = list(decks[p - 1][1])
            if shuffle:
                # Ids must not follow the deck list: an opponent who knows the list would
                # read hidden cards off their ids. BEGIN_SHUFFLE then orders the deck
                # independently, so ids tell the owner nothing about the draw order either.
                g.rng.shuffle(listed)
            ids = [g._create(cards[cid], p, Z_DECK).id for cid in listed]
            g.deck[p] = ids[::-1]  # the top of the deck is the end of the list
        g._begin(shuffle, first_player)
        return g

    def _create(self, card: Card, controller: int, zone: int, **extra: int) -> Entity:
        eid = self.next_id
        self.next_id += 1
        tags = {ENTITY_ID: eid, CONTROLLER: controller, ZONE: zone, ZONE_POSITION: 0}
        for k, v in extra.items():
            tags[_EXTRA[k]] = v
        e = Entity(eid, card, tags)
        self.ents[eid] = e
        if self.hist is not None:
            self.hist.full_entity(e)
        return e

    # ------------------------------------------------------------------ copying

    def clone(self, reseed: int | None = None) -> State:
        """An independent copy (RNG included): same actions give the same states.

        ``reseed``: give the copy a fresh RNG seeded with this value instead (sampling
        different random outcomes per rollout, as SabberStone's default clone does).

        >>> from games import hearth
        >>> g = hearth.new_game(seed=1); c = g.clone()
        >>> c.apply(c.legal_actions()[0]); g.hash() != c.hash()
        True
        """
        c = State.__new__(State)
        c.ents = {i: e.copy() for i, e in self.ents.items()}
        c.next_id = self.next_id
        c.next_order = self.next_order
        c.rng = SplitMix64(self.rng.state if reseed is None else reseed)
        c.hand = [self.hand[0], self.hand[1][:], self.hand[2][:]]
        c.deck = [self.deck[0], self.deck[1][:], self.deck[2][:]]
        c.board = [self.board[0], self.board[1][:], self.board[2][:]]
        c.hero = self.hero[:]
        c.power = self.power[:]
        c.weapon = self.weapon[:]
        c.coin = self.coin
        c.triggers = {k: v[:] for k, v in self.triggers.items()}
        c.auras = [AuraInstance(a.source, a.defn, a.applied) for a in self.auras]
        c.enchants = self.enchants[:]
        c.queue = self.queue[:]
        c.aura_dirty = self.aura_dirty
        c.maybe_dead = self.maybe_dead
        c.hist = None if self.hist is None else self.hist.copy()
        c.turn_cap = self.turn_cap
        c.current = self.current
        c.step = self.step
        c.over = self.over
        c.winner = self.winner
        c.reason = self.reason
        c._legal = self._legal
        return c

    def determinized(self, player: int, seed: int) -> State:
        """A clone in which what ``player`` cannot know is resampled (for ISMCTS-style
        search): the opponent's hidden cards (hand and deck, The Coin excepted) trade
        identities at random, both decks are reshuffled, and the RNG is reseeded.
        ``player``'s own hand and everything public are kept."""
        if player not in (1, 2):
            raise ValueError("player must be 1 or 2")
        c = self.clone(reseed=seed)
        c.hist = None  # the full stream would name the true cards
        rng = c.rng
        opp = 3 - player
        hidden = [i for i in c.hand[opp] + c.deck[opp] if i != c.coin]
        contents = [(c.ents[i].card, {k: v for k, v in c.ents[i].tags.items()
                                      if k not in KEEP_ON_TRANSFORM}) for i in hidden]
        rng.shuffle(contents)
        for i, (card, own) in zip(hidden, contents, strict=True):
            e = c.ents[i]
            keep = {k: e.tags[k] for k in KEEP_ON_TRANSFORM if k in e.tags}
            e.card = card
            e.tags = {**own, **keep}
        for p in (1, 2):
            rng.shuffle(c.deck[p])
        c._legal = None
        return c

    # ------------------------------------------------------------------ small queries

    def by_order(self, ids: list[int]) -> list[int]:
        if len(ids) < 2:
            return list(ids)
        ents = self.ents
        return sorted(ids, key=lambda i: ents[i].order)

    @staticmethod
    def controller(e: Entity) -> int:
        return e.tags.get(CONTROLLER) or e[CONTROLLER]

    def controller_of(self, eid: int) -> int:
        return self.controller(self.ents[eid])

    def tag(self, eid: int, tag: int) -> int:
        return self.ents[eid][tag]

    def card_type(self, eid: int) -> int:
        return self.ents[eid].card.type

    def health(self, eid: int) -> int:
        e = self.ents[eid]
        return e[HEALTH] - e[DAMAGE]

    def alive(self, eid: int) -> bool:
        """On the board (or a hero) and not mortally wounded or marked for destruction."""
        e = self.ents[eid]
        return e[ZONE] == Z_PLAY and e[HEALTH] - e[DAMAGE] > 0 and not e.tags.get(TO_BE_DESTROYED)

    def is_on_board(self, eid: int) -> bool:
        e = self.ents[eid]
        return e.card.type == T_MINION and eid in self.board[self.controller(e)]

    def mana(self, p: int) -> int:
        pe = self.ents[1 + p]
        # After a Coin turn RESOURCES_USED may exceed RESOURCES until the next MAIN_READY.
        return max(0, pe[RESOURCES] + pe[TEMP_RESOURCES] - pe[RESOURCES_USED])

    def spell_damage(self, p: int) -> int:
        ents = self.ents
        return sum(ents[i][SPELLPOWER] for i in self.board[p])

    def attack_value(self, eid: int) -> int:
        """Attack as used in combat: a hero adds its weapon only on its own turn (sheathed)."""
        e = self.ents[eid]
        v = e[ATK]
        if e.card.type == T_HERO:
            p = self.controller(e)
            w = self.weapon[p]
            if w and p == self.current:
                v += self.ents[w][ATK]
        return v

    # ------------------------------------------------------------------ tag writes

    def _set(self, e: Entity, tag: int, value: int) -> None:
        e.tags[tag] = value
        self._legal = None  # any change (also a direct call from a test) drops the cache
        if self.hist is not None:
            self.hist.tag_change(e, tag)

    def _move(self, e: Entity, zone: int) -> None:
        old = e[ZONE]
        e.tags[ZONE] = zone
        self._legal = None
        if self.hist is not None and old != zone:
            self.hist.zone_change(e, old)

    def _positions(self, ids: list[int]) -> None:
        ents = self.ents
        for n, i in enumerate(ids, 1):
            e = ents[i]
            if e.tags.get(ZONE_POSITION) != n:
                self._set(e, ZONE_POSITION, n)

    def _block(self, block_type: int, source: int, target: int = 0, index: int = -1) -> None:
        if self.hist is not None:
            self.hist.open_block(self.ents.get(source), block_type, source, target, index)

    def _end_block(self) -> None:
        if self.hist is not None:
            self.hist.close_block()

    def _step(self, step: Step) -> None:
        s = int(step)
        game = self.ents[1]
        self._set(game, NEXT_STEP, s)
        self._set(game, STEP, s)
        self.step = s

    # ------------------------------------------------------------------ setup and mulligan

    def _begin(self, shuffle: bool, first_player: int | None) -> None:
        self._step(Step.BEGIN_FIRST)
        first = first_player if first_player is not None else 1 + self.rng.below(2)
        self.current = first
        self._set(self.ents[1 + first], FIRST_PLAYER, 1)
        self._set(self.ents[1 + first], CURRENT_PLAYER, 1)
        self._step(Step.BEGIN_SHUFFLE)
        if shuffle:
            for p in (1, 2):
                self.rng.shuffle(self.deck[p])
        self._step(Step.BEGIN_DRAW)
        second = 3 - first
        for p, n in ((first, 3), (second, 4)):
            for _ in range(n):
                self.draw(p)
        coin = self._create(load_cards()[COIN], second, Z_HAND)
        self.coin = coin.id
        self.hand[second].append(coin.id)
        self._positions(self.hand[second])
        self._step(Step.BEGIN_MULLIGAN)
        for p in (1, 2):
            self._set(self.ents[1 + p], MULLIGAN_STATE, MULLIGAN_INPUT)

    def mulligan_cards(self, p: int) -> list[int]:
        """The cards ``p`` may replace (The Coin is never a mulligan choice)."""
        return [i for i in self.hand[p] if i != self.coin]

    def _mulligan(self, p: int, replace: tuple[int, ...]) -> None:
        pe = self.ents[1 + p]
        self._set(pe, MULLIGAN_STATE, int(Mulligan.DEALING))
        hand, deck = self.hand[p], self.deck[p]
        # New cards come before the replaced ones go back, so a card never returns at once.
        replaced = []
        for old in replace:
            if not deck:
                break
            new = deck.pop()
            hand[hand.index(old)] = new
            self._move(self.ents[new], Z_HAND)
            replaced.append(old)
        for old in replaced:
            e_old = self.ents[old]
            self._set(e_old, ZONE_POSITION, 0)
            self._move(e_old, Z_DECK)
            deck.append(old)
        if replaced:
            self.rng.shuffle(deck)
        self._positions(hand)
        self._set(pe, MULLIGAN_STATE, int(Mulligan.WAITING))
        self._set(pe, MULLIGAN_STATE, MULLIGAN_DONE)
        other = self.ents[1 + (3 - p)]
        if other[MULLIGAN_STATE] == MULLIGAN_DONE:
            self._step(Step.MAIN_BEGIN)
            self._set(self.ents[1], TURN, 1)
            self._start_turn()

    # ------------------------------------------------------------------ turn steps

    def _start_turn(self) -> None:
        p = self.current
        pe = self.ents[1 + p]
        self._step(Step.MAIN_READY)
        self._set(pe, RESOURCES, min(MAX_MANA, pe[RESOURCES] + 1))
        self._set(pe, RESOURCES_USED, 0)
        ents = self.ents
        for i in (self.hero[p], self.power[p], *self.board[p]):
            e = ents[i]
            if e.tags.get(EXHAUSTED):
                self._set(e, EXHAUSTED, 0)
            if e.tags.get(NUM_ATTACKS_THIS_TURN):
                self._set(e, NUM_ATTACKS_THIS_TURN, 0)
        self._step(Step.MAIN_START_TRIGGERS)
        self._fire(EV_TURN_START, 1 + p)
        self._deaths()
        if self.over:
            return
        self._step(Step.MAIN_START)
        self.draw(p)
        self._deaths()
        if self.over:
            return
        self._step(Step.MAIN_ACTION)

    def _end_turn(self) -> None:
        p = self.current
        self._step(Step.MAIN_END)
        self._fire(EV_TURN_END, 1 + p)
        self._deaths()
        if self.over:
            return
        self._step(Step.MAIN_CLEANUP)
        for i in [i for i in self.enchants if self.ents[i].card.tags.get(ONE_TURN_EFFECT)]:
            self.remove_enchantment(i)
        pe = self.ents[1 + p]
        if pe[TEMP_RESOURCES]:
            self._set(pe, TEMP_RESOURCES, 0)
        # SabberStone's thaw rule: a frozen character thaws at the end of its owner's turn
        # if it could have attacked and did not (no summoning sickness, or Charge); one that
        # attacked or was exhausted stays frozen through its owner's next turn.
        for i in (self.hero[p], *self.board[p]):
            e = self.ents[i]
            if e[FROZEN] and not e[NUM_ATTACKS_THIS_TURN] and (not e[EXHAUSTED] or e[CHARGE]):
                self._set(e, FROZEN, 0)
        self._update_auras()
        self._step(Step.MAIN_NEXT)
        nxt = 3 - p
        self._set(pe, CURRENT_PLAYER, 0)
        self._set(self.ents[1 + nxt], CURRENT_PLAYER, 1)
        self.current = nxt
        game = self.ents[1]
        self._set(game, TURN, game[TURN] + 1)
        if self.turn_cap is not None and game[TURN] > self.turn_cap:
            self._finish({1: _TIED, 2: _TIED}, "turn cap")
            return
        self._start_turn()

    # ------------------------------------------------------------------ primitives

    def draw(self, p: int) -> int:
        """Draw the top card (0 when the deck is empty: fatigue, or the card burned)."""
        deck = self.deck[p]
        if not deck:
            pe = self.ents[1 + p]
            n = pe[FATIGUE] + 1
            self._block(B_FATIGUE, 1 + p)
            self._set(pe, FATIGUE, n)
            self.damage(1 + p, self.hero[p], n)
            self._end_block()
            return 0
        eid = deck.pop()
        e = self.ents[eid]
        if len(self.hand[p]) >= MAX_HAND:
            # Overdraw: the card is revealed and destroyed; the hand is unchanged.
            self._move(e, Z_GRAVEYARD)
            return 0
        self.hand[p].append(eid)
        self._move(e, Z_HAND)
        self._set(e, ZONE_POSITION, len(self.hand[p]))
        return eid

    def give(self, p: int, card_id: str) -> int:
        """Create ``card_id`` in ``p``'s hand (scenario set-up and future 'add to hand' effects)."""
        if len(self.hand[p]) >= MAX_HAND:
            return 0
        e = self._create(load_cards()[card_id], p, Z_HAND)
        self.hand[p].append(e.id)
        self._set(e, ZONE_POSITION, len(self.hand[p]))
        return e.id

    def damage(self, source: int, target: int, amount: int) -> int:
        """Deal damage; returns the damage actually dealt (0 when a Divine Shield absorbs it)."""
        if amount <= 0:
            return 0
        e = self.ents[target]
        if e.tags.get(DIVINE_SHIELD) or (
            DIVINE_SHIELD not in e.tags and e.card.tags.get(DIVINE_SHIELD)
        ):
            self._set(e, DIVINE_SHIELD, 0)
            return 0
        if e.card.type == T_HERO:
            armor = e[ARMOR]
            if armor:
                absorbed = min(armor, amount)
                self._set(e, ARMOR, armor - absorbed)
                amount -= absorbed
                if not amount:
                    return 0
        self._set(e, DAMAGE, e[DAMAGE] + amount)
        self.maybe_dead = True
        if self.hist is not None:
            self.hist.meta_data(M_DAMAGE, amount, [target])
        if e.card.script.auras:
            self.aura_dirty = True
        self._fire(EV_DAMAGED, target)
        return amount

    def heal(self, source: int, target: int, amount: int) -> int:
        e = self.ents[target]
        healed = min(e[DAMAGE], amount)
        if healed <= 0:
            return 0
        self._set(e, DAMAGE, e[DAMAGE] - healed)
        if self.hist is not None:
            self.hist.meta_data(M_HEALING, healed, [target])
        if e.card.script.auras:
            self.aura_dirty = True
        self._fire(EV_HEALED, target)
        return healed

    def destroy(self, target: int) -> None:
        e = self.ents[target]
        if e[ZONE] == Z_PLAY:
            self._set(e, TO_BE_DESTROYED, 1)
            self.maybe_dead = True

    def freeze(self, target: int) -> None:
        e = self.ents[target]
        if not e[FROZEN]:
            self._set(e, FROZEN, 1)

    def gain_armor(self, p: int, amount: int) -> None:
        hero = self.ents[self.hero[p]]
        self._set(hero, ARMOR, hero[ARMOR] + amount)

    def gain_temp_mana(self, p: int, amount: int) -> None:
        pe = self.ents[1 + p]
        gain = min(amount, MAX_MANA - self.mana(p))
        if gain > 0:
            self._set(pe, TEMP_RESOURCES, pe[TEMP_RESOURCES] + gain)

    def summon(self, p: int, card_id: str, position: int, creator: int = 0) -> int:
        """Summon a new minion at board index ``position``; 0 when the board is full."""
        board = self.board[p]
        if len(board) >= MAX_BOARD:
            return 0
        e = self._create(load_cards()[card_id], p, Z_PLAY, creator=creator)
        self._enter_board(e, p, position)
        self._fire(EV_SUMMONED, e.id)
        return e.id

    def _enter_board(self, e: Entity, p: int, position: int) -> None:
        board = self.board[p]
        board.insert(max(0, min(position, len(board))), e.id)
        if e[ZONE] != Z_PLAY:
            self._move(e, Z_PLAY)
        self._set(e, EXHAUSTED, 1)
        self._positions(board)
        e.order = self.next_order
        self.next_order += 1
        self._register(e)
        self.aura_dirty = True

    def _register(self, e: Entity) -> None:
        script = e.card.script
        if e.tags.get(SILENCED):
            return
        events = {t.event for t in script.triggers}
        for ev in events:
            self.triggers.setdefault(ev, []).append(e.id)
        for a in script.auras:
            self.auras.append(AuraInstance(e.id, a))
            self.aura_dirty = True

    def _unregister(self, e: Entity) -> None:
        eid = e.id
        for ev in {t.event for t in e.card.script.triggers}:
            lst = self.triggers.get(ev)
            if lst and eid in lst:
                lst.remove(eid)
        if e.card.script.auras:
            keep = []
            for inst in self.auras:
                if inst.source == eid:
                    self._aura_apply(inst, ())
                else:
                    keep.append(inst)
            self.auras = keep

    def add_enchantment(self, card_id: str, target: int, source: int, scale: int = 0) -> int:
        """Attach enchantment ``card_id`` (a new entity) to ``target`` and apply its deltas."""
        t = self.ents[target]
        if t[ZONE] != Z_PLAY:
            return 0
        card = load_cards()[card_id]
        src = self.ents.get(source)
        owner = self.controller(src) if src is not None else self.controller(t)
        e = self._create(card, owner, Z_PLAY, attached=target, creator=source)
        if scale:
            self._set(e, SCRIPT_DATA_NUM_1, scale)
        self.enchants.append(e.id)
        script = card.script
        mult = scale if script.scaled else 1
        for tag, d in script.buff:
            self._set(t, tag, t.base(tag) + d * mult)
        return e.id

    def remove_enchantment(self, eid: int) -> None:
        """Detach an enchantment, undoing its deltas (health: current = min(current, max))."""
        e = self.ents[eid]
        if eid in self.enchants:
            self.enchants.remove(eid)
        t = self.ents[e[ATTACHED]]
        script = e.card.script
        mult = e[SCRIPT_DATA_NUM_1] if script.scaled else 1
        for tag, d in script.buff:
            self._set(t, tag, t.base(tag) - d * mult)
            if tag == HEALTH and d > 0:
                self._lose_health(t, d * mult)
        self._move(e, Z_GRAVEYARD)

    def _lose_health(self, e: Entity, lost: int) -> None:
        dmg = e[DAMAGE]
        if dmg:
            self._set(e, DAMAGE, max(0, dmg - lost))

    def _attached(self, target: int) -> list[int]:
        ents = self.ents
        return [i for i in self.enchants if ents[i].tags.get(ATTACHED) == target]

    def silence(self, target: int) -> None:
        e = self.ents[target]
        if e[ZONE] != Z_PLAY:
            return
        for i in self._attached(target):
            self.remove_enchantment(i)
        self._unregister(e)
        for tag in SILENCE_CLEARS:
            if e[tag] or e.base(tag):
                self._set(e, tag, 0)
        self._set(e, SILENCED, 1)
        self.aura_dirty = True

    def _reset_to(self, e: Entity, card: Card, own: dict[int, int]) -> None:
        """Swap ``e``'s card and own tags in place (same id) and emit a change_entity."""
        self._unregister(e)
        for i in self._attached(e.id):
            self.enchants.remove(i)
            self._move(self.ents[i], Z_GRAVEYARD)
        before = e.all_tags() if self.hist is not None else None
        e.card = card
        e.tags = own
        self._legal = None  # the tags changed behind _set's back
        self._register(e)
        self.aura_dirty = True
        if self.hist is not None:
            self.hist.change_entity(e, before)

    def transform(self, target: int, card_id: str) -> None:
        """Polymorph: the same entity becomes a fresh ``card_id`` (enchantments, damage and
        deathrattle gone); it is exhausted like any newly summoned minion."""
        e = self.ents[target]
        if e[ZONE] != Z_PLAY or e.card.type != T_MINION:
            return
        own = {t: e.tags[t] for t in KEEP_ON_TRANSFORM if t in e.tags}
        own[EXHAUSTED] = 1
        self._reset_to(e, load_cards()[card_id], own)

    def transform_copy(self, source: int, target: int) -> None:
        """Faceless Manipulator (seed 001): the source takes the target's card, its acquired
        tags and copies of its enchantments; aura bonuses from others are re-applied by
        their sources. The copy is exhausted unless it has Charge."""
        e, t = self.ents[source], self.ents[target]
        own = {k: v for k, v in t.tags.items() if k not in KEEP_ON_TRANSFORM}
        for k in KEEP_ON_TRANSFORM:
            if k in e.tags:
                own[k] = e.tags[k]
        own[EXHAUSTED] = 0 if t[CHARGE] else 1
        own[NUM_ATTACKS_THIS_TURN] = 0
        copies = [
            (self.ents[i].card, self.ents[i][SCRIPT_DATA_NUM_1]) for i in self._attached(target)
        ]
        self._reset_to(e, t.card, own)
        for card, scale in copies:
            # The deltas are already in the copied tags: attach without re-applying them.
            ench = self._create(card, self.controller(e), Z_PLAY, attached=source, creator=source)
            if scale:
                self._set(ench, SCRIPT_DATA_NUM_1, scale)
            self.enchants.append(ench.id)

    # ------------------------------------------------------------------ triggers

    def _fire(self, event: int, subject: int) -> None:
        listeners = self.triggers.get(event)
        if not listeners:
            return
        ents = self.ents
        for lid in listeners:
            for trig in ents[lid].card.script.triggers:
                if trig.event == event and trig.matches(self, lid, subject):
                    self.queue.append((lid, trig, subject))

    def _resolve(self) -> None:
        """Run queued triggers in order (each may queue more)."""
        q = self.queue
        while q:
            lid, trig, subject = q.pop(0)
            e = self.ents[lid]
            if e[ZONE] != Z_PLAY or e.tags.get(SILENCED) or e.card.script.triggers == ():
                continue
            if trig not in e.card.script.triggers:
                continue
            self._block(B_TRIGGER, lid, 0, 0)
            trig.effect.run(self, Ctx(lid, subject, self.controller(e)))
            self._end_block()

    # ------------------------------------------------------------------ auras

    def _aura_apply(self, inst: AuraInstance, new: tuple[int, ...]) -> None:
        old = inst.applied
        if old == new:
            return
        self._legal = None  # aura writes go to e.aura, not through _set
        buff = load_cards()[inst.defn.enchant_id].script.buff
        ents = self.ents
        hist = self.hist
        for i in old:
            if i in new:
                continue
            e = ents[i]
            a = e.aura
            if a is None:
                continue
            for tag, d in buff:
                a[tag] = a.get(tag, 0) - d
                if hist is not None:
                    hist.tag_change(e, tag)
                if tag == HEALTH and d > 0:
                    self._lose_health(e, d)
        for i in new:
            if i in old:
                continue
            e = ents[i]
            if e.aura is None:
                e.aura = {}
            a = e.aura
            for tag, d in buff:
                a[tag] = a.get(tag, 0) + d
                if hist is not None:
                    hist.tag_change(e, tag)
        inst.applied = new

    def _update_auras(self) -> None:
        if not self.aura_dirty:
            return
        self.aura_dirty = False
        ents = self.ents
        for inst in self.auras:
            src = ents[inst.source]
            ctx = Ctx(inst.source, 0, self.controller(src))
            self._aura_apply(inst, tuple(inst.defn.sel(self, ctx)))

    # ------------------------------------------------------------------ deaths and the end

    def _deaths(self) -> None:
        """Resolve queued triggers, then death phases (in order of play, both sides) until
        nothing dies; then check the heroes."""
        if self.queue:
            self._resolve()
        ents = self.ents
        heroes = False
        while True:
            if self.aura_dirty:
                self._update_auras()
            if not self.maybe_dead:
                break
            self.maybe_dead = False
            heroes = True
            dead = []
            for i in self.board[1] + self.board[2]:
                e = ents[i]
                if e[HEALTH] - e.tags.get(DAMAGE, 0) <= 0 or e.tags.get(TO_BE_DESTROYED):
                    dead.append(i)
            for p in (1, 2):
                w = self.weapon[p]
                if w:
                    we = ents[w]
                    if we[DAMAGE] >= we[DURABILITY] or we.tags.get(TO_BE_DESTROYED):
                        dead.append(w)
            if not dead:
                break
            dead.sort(key=lambda i: ents[i].order)
            self._block(B_DEATHS, 1)
            for i in dead:
                e = ents[i]
                p = self.controller(e)
                if e.card.type == T_WEAPON:
                    self.weapon[p] = 0
                    self._move(e, Z_GRAVEYARD)
                    continue
                board = self.board[p]
                slot = board.index(i)
                board.remove(i)
                self._unregister(e)
                for ench in self._attached(i):
                    self.enchants.remove(ench)
                    self._move(ents[ench], Z_GRAVEYARD)
                self._move(e, Z_GRAVEYARD)
                self._positions(board)
                self.aura_dirty = True
                dr = e.card.script.deathrattle
                if dr is not None and not e.tags.get(SILENCED):
                    self._block(B_TRIGGER, i, 0, 0)
                    dr.run(self, Ctx(i, 0, p, slot))
                    self._end_block()
            self._end_block()
            if self.queue:
                self._resolve()
        if self.aura_dirty:
            self._update_auras()
        if not heroes:
            return
        lost = [p for p in (1, 2) if self.health(self.hero[p]) <= 0]
        if lost:
            if len(lost) == 2:
                self._finish({1: _TIED, 2: _TIED}, "both heroes died")
            else:
                loser = lost[0]
                self._finish({loser: _LOST, 3 - loser: _WON}, "hero died")

    def _finish(self, states: dict[int, int], reason: str) -> None:
        if self.over:
            return
        for p in (1, 2):
            pe = self.ents[1 + p]
            s = states[p]
            if s == _LOST:
                self._set(pe, PLAYSTATE, int(PlayState.LOSING))
            elif s == _WON:
                self._set(pe, PLAYSTATE, int(PlayState.WINNING))
            self._set(pe, PLAYSTATE, s)
        self._step(Step.FINAL_WRAPUP)
        self._step(Step.FINAL_GAMEOVER)
        self._set(self.ents[1], STATE, int(GameState.COMPLETE))
        self.over = True
        self.reason = reason
        won = [p for p in (1, 2) if states[p] == _WON]
        self.winner = won[0] if won else 0
        self._legal = []

    def concede(self, p: int) -> None:
        """Player ``p`` concedes (a server calls this on concede, timeout or disconnect)."""
        if p not in (1, 2):
            raise ValueError("player must be 1 or 2")
        if self.over:
            return
        self._legal = None
        self._set(self.ents[1 + p], PLAYSTATE, _CONCEDED)
        self._finish({p: _LOST, 3 - p: _WON}, "concede")

    # ------------------------------------------------------------------ legal actions

    def pending(self) -> list[int]:
        """Who must decide now: both players during the mulligan, else the current player."""
        if self.over:
            return []
        if self.step == int(Step.BEGIN_MULLIGAN):
            return [p for p in (1, 2) if self.ents[1 + p][MULLIGAN_STATE] == MULLIGAN_INPUT]
        return [self.current]

    def _targets(self, p: int, reqs: dict[int, int], source: int) -> list[int]:
        ents = self.ents
        out = []
        minion_only = REQ_MINION in reqs
        for q in (p, 3 - p):
            if REQ_FRIENDLY in reqs and q != p:
                continue
            if REQ_ENEMY in reqs and q == p:
                continue
            cands = list(self.board[q])
            if not minion_only:
                cands.insert(0, self.hero[q])
            for i in cands:
                if REQ_HERO in reqs and ents[i].card.type != T_HERO:
                    continue
                if REQ_NONSELF in reqs and i == source:
                    continue
                if REQ_DAMAGED in reqs and not ents[i][DAMAGE]:
                    continue
                out.append(i)
        return out

    def _can_attack(self, eid: int) -> bool:
        e = self.ents[eid]
        if e[EXHAUSTED] and not e[CHARGE]:
            return False
        attacks = e[NUM_ATTACKS_THIS_TURN]
        if attacks and attacks >= (2 if e[WINDFURY] else 1):
            return False
        return not e[FROZEN] and self.attack_value(eid) > 0

    def _attack_targets(self, p: int) -> list[int]:
        q = 3 - p
        ents = self.ents
        taunts = [i for i in self.board[q] if ents[i][TAUNT]]
        if taunts:
            return taunts
        return [self.hero[q], *self.board[q]]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Every legal action now, as a flat list (both players' during the mulligan).

        >>> from games import hearth
        >>> g = hearth.new_game(seed=3)
        >>> sorted({a.kind.name for a in g.legal_actions()})
        ['MULLIGAN']
        """
        acts = self._legal
        if acts is None:
            acts = self._legal = self._generate()
        if player is None:
            return list(acts)
        return [a for a in acts if self._actor(a) == player]

    def legal_moves(self, player: int) -> list[Action]:
        """DESIGN's name for :meth:`legal_actions` of one seat."""
        return self.legal_actions(player)

    def view(self, player: int) -> dict[str, Any]:
        """DESIGN's name for :meth:`observation`."""
        return self.observation(player)

    def _actor(self, a: Action) -> int:
        return a.entity if a.kind == Kind.MULLIGAN else self.current

    def _generate(self) -> list[Action]:
        if self.over:
            return []
        if self.step == int(Step.BEGIN_MULLIGAN):
            out = []
            for p in self.pending():
                cards = self.mulligan_cards(p)
                for mask in range(1 << len(cards)):
                    chosen = tuple(sorted(c for k, c in enumerate(cards) if mask >> k & 1))
                    out.append(Action(Kind.MULLIGAN, p, 0, -1, chosen))
            return out
        if self.step != _MAIN_ACTION:
            return []
        p = self.current
        ents = self.ents
        out = [END_TURN]
        mana = self.mana(p)
        board = self.board[p]
        full = len(board) >= MAX_BOARD
        slots = range(len(board) + 1)
        for cid in self.hand[p]:
            e = ents[cid]
            if e[COST] > mana:
                continue
            card = e.card
            script = card.script
            ctype = card.type
            if ctype == T_MINION and full:
                continue
            reqs = script.requirements
            if reqs:
                if REQ_SLOTS in reqs and full:
                    continue
                if REQ_WEAPON in reqs and not self.weapon[p]:
                    continue
            targets = self._targets(p, reqs, cid) if script.takes_target else _NO_TARGET
            if not targets:
                if script.needs_target:
                    continue
                targets = _NO_TARGET
            if ctype == T_MINION:
                out.extend([_new(Action, (_PLAY, cid, t, n, ())) for t in targets for n in slots])
            else:
                out.extend([_new(Action, (_PLAY, cid, t, -1, ())) for t in targets])
        hp = ents[self.power[p]]
        if not hp[EXHAUSTED] and hp[COST] <= mana:
            script = hp.card.script
            reqs = script.requirements
            if not (REQ_SLOTS in reqs and full):
                targets = self._targets(p, reqs, hp.id) if script.takes_target else _NO_TARGET
                if targets or not script.needs_target:
                    for t in targets or _NO_TARGET:
                        out.append(_new(Action, (_POWER, hp.id, t, -1, ())))
        attackers = [i for i in (self.hero[p], *board) if self._can_attack(i)]
        if attackers:
            defenders = self._attack_targets(p)
            out.extend([_new(Action, (_ATTACK, a, d, -1, ())) for a in attackers
                        for d in defenders])
        return out

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Action, player: int | None = None) -> None:
        """Apply a legal action; raises :class:`IllegalAction` (state unchanged) otherwise.

        ``player`` (optional): the seat sending it; an action that is not that player's to
        take is refused (a server passes the seat; playouts need not)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if action not in legal:
            raise IllegalAction(f"illegal action {action!r}")
        if player is not None and self._actor(action) != player:
            raise IllegalAction(f"{action!r} is not player {player}'s to take")
        self._legal = None
        kind = action.kind
        if kind == Kind.MULLIGAN:
            self._mulligan(action.entity, action.cards)
        elif kind == Kind.END_TURN:
            self._end_turn()
        elif kind == Kind.PLAY:
            self._play(action.entity, action.target, action.position)
        elif kind == Kind.POWER:
            self._hero_power(action.entity, action.target)
        else:
            self._attack(action.entity, action.target)

    def _pay(self, p: int, cost: int) -> None:
        if cost:
            pe = self.ents[1 + p]
            self._set(pe, RESOURCES_USED, pe[RESOURCES_USED] + cost)

    def _play(self, eid: int, target: int, position: int) -> None:
        p = self.current
        e = self.ents[eid]
        card = e.card
        self._block(B_PLAY, eid, target)
        self._pay(p, e[COST])
        hand = self.hand[p]
        hand.remove(eid)
        self._positions(hand)
        ctype = card.type
        script = card.script
        if ctype == T_MINION:
            self._set(e, ZONE_POSITION, 0)
            self._enter_board(e, p, position)
            self._update_auras()
            if script.play is not None:
                self._block(B_POWER, eid, target)
                script.play.run(self, Ctx(eid, target, p))
                self._end_block()
                # SabberStone's PlayMinion: a death phase between the battlecry and the
                # after-summon phase (a Juggler the battlecry killed throws nothing).
                self._deaths()
            if not self.over:
                self._fire(EV_SUMMONED, eid)
        elif ctype == T_WEAPON:
            old = self.weapon[p]
            if old:
                self.weapon[p] = 0
                self._move(self.ents[old], Z_GRAVEYARD)
            self._set(e, ZONE_POSITION, 0)
            self._move(e, Z_PLAY)
            self.weapon[p] = eid
            if script.play is not None:
                self._block(B_POWER, eid, target)
                script.play.run(self, Ctx(eid, target, p))
                self._end_block()
        else:
            self._set(e, ZONE_POSITION, 0)
            self._move(e, Z_PLAY)
            if self.hist is not None and target:
                self.hist.meta_data(M_TARGET, 0, [target])
            if script.play is not None:
                self._block(B_POWER, eid, target)
                script.play.run(self, Ctx(eid, target, p))
                self._end_block()
            self._move(e, Z_GRAVEYARD)
        self._deaths()
        self._end_block()

    def _hero_power(self, eid: int, target: int) -> None:
        p = self.current
        e = self.ents[eid]
        self._block(B_PLAY, eid, target)
        self._pay(p, e[COST])
        self._set(e, EXHAUSTED, 1)
        if e.card.script.play is not None:
            self._block(B_POWER, eid, target)
            e.card.script.play.run(self, Ctx(eid, target, p))
            self._end_block()
        self._deaths()
        self._end_block()

    def _attack(self, attacker: int, defender: int) -> None:
        a = self.ents[attacker]
        self._block(B_ATTACK, attacker, defender)
        self._set(a, NUM_ATTACKS_THIS_TURN, a[NUM_ATTACKS_THIS_TURN] + 1)
        self._set(a, EXHAUSTED, 1)
        dealt = self.attack_value(attacker)
        taken = self.attack_value(defender)
        # Combat damage is simultaneous: both amounts are fixed before either is dealt.
        self.damage(attacker, defender, dealt)
        self.damage(defender, attacker, taken)
        if a.card.type == T_HERO:
            w = self.weapon[self.controller(a)]
            if w:
                we = self.ents[w]
                self._set(we, DAMAGE, we[DAMAGE] + 1)
                self.maybe_dead = True
        self._deaths()
        self._end_block()

    # ------------------------------------------------------------------ results and views

    @property
    def is_over(self) -> bool:
        return self.over

    def result(self) -> Result | None:
        """``None`` while the game runs."""
        if not self.over:
            return None
        return Result(self.winner, self.reason, (self.ents[2][PLAYSTATE], self.ents[3][PLAYSTATE]))

    def hash(self) -> int:
        """A 64-bit digest of the whole state (entities, zones, auras, triggers, RNG)."""
        parts: list[Any] = [self.rng.state, self.next_id, self.current, self.step, self.over]
        for i in sorted(self.ents):
            e = self.ents[i]
            parts.append(
                (
                    i,
                    e.card.id,
                    e.order,
                    sorted(e.tags.items()),
                    sorted(e.aura.items()) if e.aura else (),
                )
            )
        parts.append((self.hand, self.deck, self.board, self.hero, self.power, self.weapon))
        parts.append(sorted((k, tuple(v)) for k, v in self.triggers.items()))
        parts.append([(a.source, a.defn.enchant_id, a.applied) for a in self.auras])
        parts.append(self.enchants)
        digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def entities(self) -> dict[int, tuple[str, dict[int, int]]]:
        """Every entity: id -> (card id, current tags), for introspection and validation."""
        out = {}
        for i, e in self.ents.items():
            tags = e.all_tags()
            tags[ENTITY_ID] = i
            out[i] = (e.card.id, tags)
        return out

    def history(self, viewer: int | None = None, since: int = 0) -> list[dict[str, Any]]:
        """Kettle history entries so far (``since``: skip the first entries, for streaming).

        ``viewer`` None = full view, 1 or 2 = what that player may see."""
        if self.hist is None:
            raise RuntimeError("history is off: create the game with history=True")
        if viewer not in (None, 1, 2):
            raise ValueError("viewer must be None, 1 or 2")
        if not isinstance(since, int) or since < 0:
            raise ValueError("since must be an int >= 0")
        return self.hist.streams[0 if viewer is None else viewer][since:]

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see: own hand in full; the opponent's hand and deck as counts."""
        if player not in (1, 2):
            raise ValueError("player must be 1 or 2")
        ents = self.ents

        def char(i: int) -> dict[str, Any]:
            e = ents[i]
            return {
                "entity": i,
                "card": e.card.id,
                "atk": e[ATK],
                "health": e[HEALTH] - e[DAMAGE],
                "max_health": e[HEALTH],
                "taunt": bool(e[TAUNT]),
                "divine_shield": bool(e[DIVINE_SHIELD]),
                "frozen": bool(e[FROZEN]),
                "exhausted": bool(e[EXHAUSTED]),
                "attacks": e[NUM_ATTACKS_THIS_TURN],
                "armor": e[ARMOR],
                "silenced": bool(e[SILENCED]),
            }

        def side(q: int, own: bool) -> dict[str, Any]:
            pe = ents[1 + q]
            w = self.weapon[q]
            d: dict[str, Any] = {
                "hero": char(self.hero[q]),
                "hero_power": {
                    "entity": self.power[q],
                    "card": ents[self.power[q]].card.id,
                    "used": bool(ents[self.power[q]][EXHAUSTED]),
                },
                "weapon": None
                if not w
                else {
                    "entity": w,
                    "card": ents[w].card.id,
                    "atk": ents[w][ATK],
                    "durability": ents[w][DURABILITY] - ents[w][DAMAGE],
                },
                "board": [char(i) for i in self.board[q]],
                "mana": self.mana(q),
                "max_mana": pe[RESOURCES],
                "fatigue": pe[FATIGUE],
                "deck_count": len(self.deck[q]),
                "hand_count": len(self.hand[q]),
            }
            if own:
                d["hand"] = [
                    {"entity": i, "card": ents[i].card.id, "cost": ents[i][COST]}
                    for i in self.hand[q]
                ]
            else:
                d["hand"] = [{"entity": i} for i in self.hand[q]]
            return d

        return {
            "player": player,
            "turn": ents[1][TURN],
            "step": self.step,
            "current_player": self.current,
            "you": side(player, True),
            "opponent": side(3 - player, False),
            "legal_actions": self.legal_actions(player) if player in self.pending() else [],
            "over": self.over,
        }

    def __repr__(self) -> str:
        return (
            f"<hearth.State turn={self.ents[1][TURN]} step={Step(self.step).name} "
            f"current={self.current} over={self.over}>"
        )


_EXTRA = {"attached": ATTACHED, "creator": CREATOR}

__all__ = ["IllegalAction", "Result", "State"]
