"""A game: creation and cloning, the real step machine, the death phase, ``apply``.

One :class:`State` is one game. It owns every entity (game = 1, players = 2 and 3, cards
from 4 in creation order), the zone lists (ids), the trigger index (event type -> listener
ids, in order of play), the active auras and a seeded RNG whose state is one int, so
:meth:`State.clone` is a handful of dict and list copies.

The class is assembled from layers (see :mod:`.core`): the effect primitives live in
:mod:`.effects`, playing and attacking in :mod:`.play`, triggers and auras in
:mod:`.triggers` and :mod:`.auras`, hidden information and :meth:`State.from_view` in
:mod:`.determinize`, observations in :mod:`.view`. This module keeps what drives a game
from one decision to the next.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, NamedTuple

from . import view
from .actions import Action, IllegalAction, Kind
from .carddb import COIN, load_cards, pseudo_card
from .core import AuraInstance
from .determinize import Determinize
from .effects import KEEP_ON_TRANSFORM
from .entity import Entity
from .enums import (
    B_DEATHS,
    B_TRIGGER,
    CHARGE,
    CONTROLLER,
    COPIED_FROM_ENTITY_ID,
    CURRENT_PLAYER,
    DAMAGE,
    DURABILITY,
    ENTITY_ID,
    EXHAUSTED,
    FATIGUE,
    FIRST_PLAYER,
    FROZEN,
    HEALTH,
    HERO_ENTITY,
    HERO_POWER_ENTITY,
    MAX_HAND,
    MAX_MANA,
    MAXHANDSIZE,
    MAXRESOURCES,
    MULLIGAN_STATE,
    NEXT_STEP,
    NUM_ATTACKS_THIS_TURN,
    NUM_CARDS_PLAYED_THIS_TURN,
    NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN,
    NUM_MINIONS_PLAYED_THIS_TURN,
    ONE_TURN_EFFECT,
    OVERLOAD_LOCKED,
    OVERLOAD_OWED,
    PLAYER_ID,
    PLAYSTATE,
    RESOURCES,
    RESOURCES_USED,
    SILENCED,
    STARTHANDSIZE,
    STATE,
    STEP,
    T_GAME,
    T_HERO,
    T_PLAYER,
    T_WEAPON,
    TEAM_ID,
    TEMP_RESOURCES,
    TO_BE_DESTROYED,
    TURN,
    Z_DECK,
    Z_GRAVEYARD,
    Z_HAND,
    Z_PLAY,
    ZONE,
    ZONE_POSITION,
    Mulligan,
    PlayState,
    Step,
)
from .enums import State as GameState
from .history import History
from .primitives import Ctx
from .rng import SplitMix64
from .script import EV_DIED, EV_TURN_END, EV_TURN_START

_BEGIN_MULLIGAN = int(Step.BEGIN_MULLIGAN)
_MAIN_READY = int(Step.MAIN_READY)
_MAIN_START_TRIGGERS = int(Step.MAIN_START_TRIGGERS)
_MAIN_START = int(Step.MAIN_START)
_MAIN_ACTION = int(Step.MAIN_ACTION)
_MAIN_END = int(Step.MAIN_END)
_MAIN_CLEANUP = int(Step.MAIN_CLEANUP)
_MAIN_NEXT = int(Step.MAIN_NEXT)
_FINAL_WRAPUP = int(Step.FINAL_WRAPUP)
_FINAL_GAMEOVER = int(Step.FINAL_GAMEOVER)
# The EffectIndex a real log gives the current player's TRIGGER block of each step.
_IDX_START, _IDX_READY, _IDX_ACTION, _IDX_END, _IDX_CLEANUP = 0, 1, 2, 4, 5
_IDX_DEALING, _IDX_DONE, _IDX_START_TRIGGERS = 6, 7, 8
MULLIGAN_INPUT = int(Mulligan.INPUT)
MULLIGAN_DONE = int(Mulligan.DONE)
_PLAYING, _WON, _LOST, _TIED = (
    int(PlayState.PLAYING),
    int(PlayState.WON),
    int(PlayState.LOST),
    int(PlayState.TIED),
)
_CONCEDED = int(PlayState.CONCEDED)
_LOSING = int(PlayState.LOSING)


class Result(NamedTuple):
    """How a finished game ended: ``winner`` is 1, 2 or 0 for a draw."""

    winner: int
    reason: str
    playstates: tuple[int, int]


class State(Determinize):
    """A game of the Hearthstone-like engine; create it with :func:`games.hearth.new_game`."""

    __slots__ = ()

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
            hero_card = cards.get(hero_id) if isinstance(hero_id, str) else None
            if hero_card is None or hero_card.type != T_HERO or not hero_card.collectible:
                raise ValueError(f"unknown hero {hero_id!r}")
            if not isinstance(deck, (list, tuple)) or len(deck) > 60:
                raise ValueError("a deck is a list of at most 60 card ids")
            for cid in deck:
                c = cards.get(cid) if isinstance(cid, str) else None
                if c is None or not c.playable:
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
            # As in a real CREATE_GAME: STATE, TURN and the steps come as tag changes.
            {ENTITY_ID: 1, ZONE: Z_PLAY},
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
            hero_def = cards[decks[p - 1][0]]
            hero = g._create(hero_def, p, Z_PLAY)
            g.hero[p] = hero.id
            g._set(g.ents[1 + p], HERO_ENTITY, hero.id)
            power = g._create(cards[hero_def.hero_power], p, Z_PLAY)
            g.power[p] = power.id
            g._set(g.ents[1 + p], HERO_POWER_ENTITY, power.id)
        for p in (1, 2):
            listed = list(decks[p - 1][1])
            if shuffle:
                # Ids must not follow the deck list: an opponent who knows the list would
                # read hidden cards off their ids. The shuffle in `_begin` then orders the deck
                # independently, so ids tell the owner nothing about the draw order either.
                g.rng.shuffle(listed)
            ids = [g._create(cards[cid], p, Z_DECK).id for cid in listed]
            g.deck[p] = ids[::-1]  # the top of the deck is the end of the list
        g._set(game, STATE, int(GameState.RUNNING))
        for p in (1, 2):
            g._set(g.ents[1 + p], PLAYSTATE, _PLAYING)
        g._begin(shuffle, first_player)
        return g

    # ------------------------------------------------------------------ copying

    def reseed(self, seed: int) -> None:
        """From now on draw randomness from a fresh stream seeded with `seed` (a game
        started from a stored position with "fresh" randomness: what is already dealt
        stays, what is random later differs from the original).

        >>> from games import hearth
        >>> a, b = hearth.new_game(seed=1), hearth.new_game(seed=1)
        >>> b.reseed(2); a.hash() != b.hash()
        True
        """
        self.rng = SplitMix64(seed)

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
        # Entity.copy inlined: a mid-game state has 70-150 entities, and the call per
        # entity was a fifth of the clone's time (issue #27's 20 µs).
        new = Entity.__new__
        ents: dict[int, Entity] = {}
        for i, e in self.ents.items():
            n = ents[i] = new(Entity)
            n.id = i
            n.card = e.card
            n.tags = e.tags.copy()
            a = e.aura
            n.aura = None if a is None else a.copy()
            n.order = e.order
        c.ents = ents
        c.next_id = self.next_id
        c.next_order = self.next_order
        c.rng = SplitMix64(self.rng.state if reseed is None else reseed)
        c.hand = [self.hand[0], self.hand[1][:], self.hand[2][:]]
        c.deck = [self.deck[0], self.deck[1][:], self.deck[2][:]]
        c.board = [self.board[0], self.board[1][:], self.board[2][:]]
        c.hero = self.hero[:]
        c.power = self.power[:]
        c.weapon = self.weapon[:]
        c.secrets = [self.secrets[0], self.secrets[1][:], self.secrets[2][:]]
        c.coin = self.coin
        c.triggers = {k: v[:] for k, v in self.triggers.items()}
        c.auras = [AuraInstance(a.source, a.defn, a.applied) for a in self.auras]
        c.enchants = self.enchants[:]
        c.queue = self.queue[:]
        c.aura_dirty = self.aura_dirty
        c.cost_held = self.cost_held[:]
        c.maybe_dead = self.maybe_dead
        c.hist = None if self.hist is None else self.hist.copy()
        c.turn_cap = self.turn_cap
        c.current = self.current
        c.step = self.step
        c.over = self.over
        c.winner = self.winner
        c.reason = self.reason
        c._legal = self._legal
        c.choices = self.choices[:]  # --- hunter --- (records are immutable)
        c.unseen = set(self.unseen)
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
        opp = 3 - player
        hidden = [i for i in c.hand[opp] + c.deck[opp] + c._unseen_of(opp)
                  if i != c.coin and not c._known_copy(i, player)]
        contents = [(c.ents[i].card, {k: v for k, v in c.ents[i].tags.items()
                                      if k not in KEEP_ON_TRANSFORM}) for i in hidden]
        c.rng.shuffle(contents)
        c._identify(hidden, contents)
        for i in hidden:  # --- costs: a cost enchantment stays with its entity
            c._rebase_cost(c.ents[i])
        c._redraw_secrets(opp)
        c._shuffle_decks()
        c._update_auras()  # --- costs: the new identities' costs
        c._legal = None
        return c

    def _unseen_of(self, p: int) -> list[int]:
        """--- hunter --- ``p``'s cards in public zones that the opponent never saw
        (Tracking's, set aside or discarded): hidden like the deck they came from."""
        ents = self.ents
        return sorted(i for i in self.unseen if self.controller(ents[i]) == p)

    def _known_copy(self, eid: int, player: int) -> bool:
        """A copy of a card of ``player``'s (Lorewalker Cho's): ``player`` knows it."""
        original = self.ents[eid].tags.get(COPIED_FROM_ENTITY_ID, 0)
        return bool(original) and self.controller(self.ents[original]) == player

    def _redraw_secrets(self, p: int) -> None:
        """``p``'s secrets get other (distinct, same-class) identities, triggers moved."""
        ids = list(self.secrets[p])
        if not ids:
            return
        for i in ids:
            self._unregister(self.ents[i])
        self._draw_secrets(p, ids)
        for i in ids:
            self._register(self.ents[i])

    # ------------------------------------------------------------------ steps
    #
    # The grammar of a real game's Power.log (docs/hearth-engine.md, "The step machine"):
    # STEP changes at the top level, each followed by a TRIGGER block of the current
    # player (or the game) that does the step's work and ends with NEXT_STEP = the step
    # to come; an attack sets MAIN_COMBAT inside its ATTACK block.

    def _next(self, step: int) -> None:
        self._set(self.ents[1], NEXT_STEP, step)

    def _step(self, step: int) -> None:
        self._set(self.ents[1], STEP, step)
        self.step = step

    def _next_block(self, source: int, index: int, step: int) -> None:
        """A TRIGGER block of ``source`` that only sets NEXT_STEP (one shared entry for the
        three streams; the tag is written as :meth:`_next` would)."""
        self.ents[1].tags[NEXT_STEP] = step
        self._legal = None
        if self.hist is not None:
            self.hist.next_step_block(source, index, step)

    def _action_step(self) -> None:
        """STEP MAIN_ACTION, and the player's block that points NEXT_STEP at MAIN_END."""
        self._step(_MAIN_ACTION)
        self._next_block(1 + self.current, _IDX_ACTION, _MAIN_END)

    # ------------------------------------------------------------------ setup and mulligan

    def _begin(self, shuffle: bool, first_player: int | None) -> None:
        # SabberStone's BEGIN_FIRST, BEGIN_SHUFFLE and BEGIN_DRAW in one TRIGGER block of
        # the game, as a real log writes them (no STEP change until BEGIN_MULLIGAN).
        self._block(B_TRIGGER, 1)
        first = first_player if first_player is not None else 1 + self.rng.below(2)
        self.current = first
        self._set(self.ents[1 + first], CURRENT_PLAYER, 1)
        self._set(self.ents[1 + first], FIRST_PLAYER, 1)
        self._set(self.ents[1], TURN, 1)
        if shuffle:
            for p in (1, 2):
                self.rng.shuffle(self.deck[p])
        second = 3 - first
        for p, n in ((first, 3), (second, 4)):
            for _ in range(n):
                self.draw(p)
        coin = self._create(load_cards()[COIN], second, Z_HAND)
        self.coin = coin.id
        self.hand[second].append(coin.id)
        self._positions(self.hand[second])
        self._update_auras()  # --- costs: the opening hands' costs (Mountain Giant)
        self._next(_BEGIN_MULLIGAN)
        self._end_block()
        self._step(_BEGIN_MULLIGAN)
        self._block(B_TRIGGER, 1)
        for p in (1, 2):
            self._set(self.ents[1 + p], MULLIGAN_STATE, MULLIGAN_INPUT)
        self._end_block()

    def mulligan_cards(self, p: int) -> list[int]:
        """The cards ``p`` may replace (The Coin is never a mulligan choice)."""
        return [i for i in self.hand[p] if i != self.coin]

    def _mulligan(self, p: int, replace: tuple[int, ...]) -> None:
        pe = self.ents[1 + p]
        self._set(pe, MULLIGAN_STATE, int(Mulligan.DEALING))
        self._block(B_TRIGGER, 1 + p, 0, _IDX_DEALING)
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
            # The players' mulligans are answered at the same time: each shuffles with a
            # stream of its own, so the game is the same whichever answer comes first.
            self.rng.derived(p).shuffle(deck)
        self._positions(hand)
        self.aura_dirty = True  # --- costs
        self._update_auras()
        self._set(pe, MULLIGAN_STATE, int(Mulligan.WAITING))
        self._end_block()
        self._block(B_TRIGGER, 1 + p, 0, _IDX_DONE)
        self._set(pe, MULLIGAN_STATE, MULLIGAN_DONE)
        both = self.ents[1 + (3 - p)][MULLIGAN_STATE] == MULLIGAN_DONE
        if both:
            self._next(_MAIN_READY)
        self._end_block()
        if both:
            self._start_turn()

    # ------------------------------------------------------------------ turn steps

    def _start_turn(self) -> None:
        p = self.current
        pe = self.ents[1 + p]
        self._step(_MAIN_READY)
        self._block(B_TRIGGER, 1 + p, 0, _IDX_READY)
        self._set(pe, RESOURCES, min(MAX_MANA, pe[RESOURCES] + 1))
        self._set(pe, RESOURCES_USED, 0)
        if pe[NUM_CARDS_PLAYED_THIS_TURN]:
            self._set(pe, NUM_CARDS_PLAYED_THIS_TURN, 0)
        if pe[NUM_MINIONS_PLAYED_THIS_TURN]:  # --- costs
            self._set(pe, NUM_MINIONS_PLAYED_THIS_TURN, 0)
            self.aura_dirty = True
        if pe[NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN]:
            self._set(pe, NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN, 0)
        # Overload: what was owed is locked for this turn (and last turn's lock ends).
        if pe[OVERLOAD_LOCKED] or pe[OVERLOAD_OWED]:
            self._set(pe, OVERLOAD_LOCKED, pe[OVERLOAD_OWED])
            self._set(pe, OVERLOAD_OWED, 0)
        ents = self.ents
        for i in (self.hero[p], self.power[p], *self.board[p]):
            e = ents[i]
            if e.tags.get(EXHAUSTED):
                self._set(e, EXHAUSTED, 0)
            if e.tags.get(NUM_ATTACKS_THIS_TURN):
                self._set(e, NUM_ATTACKS_THIS_TURN, 0)
        self._next(_MAIN_START_TRIGGERS)
        self._end_block()
        self._step(_MAIN_START_TRIGGERS)
        self._fire(EV_TURN_START, 1 + p)
        self._deaths()
        if self.over:
            return
        self._next_block(1 + p, _IDX_START_TRIGGERS, _MAIN_START)
        self._step(_MAIN_START)
        self._block(B_TRIGGER, 1 + p, 0, _IDX_START)
        self.draw(p)
        self._next(_MAIN_ACTION)
        self._end_block()
        self._deaths()
        if self.over:
            return
        self._action_step()

    def _end_turn(self) -> None:
        p = self.current
        self._step(_MAIN_END)
        self._fire(EV_TURN_END, 1 + p)
        self._deaths()
        if self.over:
            return
        self._next_block(1 + p, _IDX_END, _MAIN_CLEANUP)
        self._step(_MAIN_CLEANUP)
        self._block(B_TRIGGER, 1 + p, 0, _IDX_CLEANUP)
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
        self._next(_MAIN_NEXT)
        self._end_block()
        self._step(_MAIN_NEXT)
        self._block(B_TRIGGER, 1)
        nxt = 3 - p
        self._set(pe, CURRENT_PLAYER, 0)
        self._set(self.ents[1 + nxt], CURRENT_PLAYER, 1)
        self.current = nxt
        game = self.ents[1]
        self._set(game, TURN, game[TURN] + 1)
        capped = self.turn_cap is not None and game[TURN] > self.turn_cap
        if not capped:
            self._next(_MAIN_READY)
        self._end_block()
        if capped:
            self._finish(0, "turn cap")
            return
        self._start_turn()

    # ------------------------------------------------------------------ deaths and the end

    def _deaths(self) -> None:
        """Resolve queued triggers, then death phases (in order of play, both sides) until
        nothing dies; then check the heroes.

        History: the removals are written in a DEATHS block of the game; a deathrattle runs
        in a TRIGGER block of the dead minion after it, outside the DEATHS block (a real log
        never nests a block in DEATHS), and the deaths after it go on in a new DEATHS block.
        """
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
            block_open = True
            for i in dead:
                if not block_open:
                    self._block(B_DEATHS, 1)
                    block_open = True
                e = ents[i]
                p = self.controller(e)
                if e.card.type == T_WEAPON:
                    if e.card.script.deathrattle is not None:
                        self._end_block()
                        block_open = False
                    self._weapon_gone(p)
                    continue
                board = self.board[p]
                slot = board.index(i)
                board.remove(i)
                self._unregister(e)
                # Deathrattles enchantments gave (Ancestral Spirit) run after the minion's own.
                granted = [
                    (x, d)
                    for x in self._attached(i)
                    if (d := ents[x].card.script.deathrattle) is not None
                ]
                for ench in self._attached(i):
                    self._drop_enchantment(ench)
                self._move(e, Z_GRAVEYARD)
                self._record_death(e, p)
                self._positions(board)
                self.aura_dirty = True
                self._fire(EV_DIED, i)
                dr = e.card.script.deathrattle
                if dr is not None and not e.tags.get(SILENCED):
                    granted.insert(0, (i, dr))
                for src, effect in granted:
                    if block_open:
                        self._end_block()
                        block_open = False
                    self._block(B_TRIGGER, src, 0, 0)
                    effect.run(self, Ctx(i, 0, p, slot))
                    self._end_block()
            if block_open:
                self._end_block()
            if self.queue:
                self._resolve()
        if self.aura_dirty:
            self._update_auras()
        if not heroes or self.over:
            return
        lost = [p for p in (1, 2) if self.health(self.hero[p]) <= 0]
        if lost:
            # A real log marks the loser LOSING in a DEATHS block; LOST/WON come after.
            self._block(B_DEATHS, 1)
            for p in lost:
                self._set(self.ents[1 + p], PLAYSTATE, _LOSING)
            self._end_block()
            if len(lost) == 2:
                self._finish(0, "both heroes died")
            else:
                self._finish(3 - lost[0], "hero died")

    def _finish(self, winner: int, reason: str) -> None:
        """The game is over: ``winner`` 1, 2 or 0 (a draw). The history's end (final
        PLAYSTATEs, FINAL_WRAPUP, FINAL_GAMEOVER, STATE COMPLETE) is written at once at
        the top level, else when the last open block closes (:meth:`_end_block`)."""
        if self.over:
            return
        self.over = True
        self.reason = reason
        self.winner = winner
        self._legal = []
        h = self.hist
        if h is None or len(h.stacks[0]) == 1:
            self._wrap_up()

    def _wrap_up(self) -> None:
        winner = self.winner
        ents = self.ents
        if winner:
            loser = 3 - winner
            self._set(ents[1 + loser], PLAYSTATE, _LOST)
            self._set(ents[1 + winner], PLAYSTATE, _WON)
        else:
            for p in (1, 2):
                self._set(ents[1 + p], PLAYSTATE, _TIED)
        self._next(_FINAL_WRAPUP)
        self._step(_FINAL_WRAPUP)
        self._next_block(1, -1, _FINAL_GAMEOVER)
        self._step(_FINAL_GAMEOVER)
        self._set(ents[1], STATE, int(GameState.COMPLETE))
        self._legal = []

    def concede(self, p: int) -> None:
        """Player ``p`` concedes (a server calls this on concede, timeout or disconnect)."""
        if p not in (1, 2):
            raise ValueError("player must be 1 or 2")
        if self.over:
            return
        self._legal = None
        self._set(self.ents[1 + p], PLAYSTATE, _CONCEDED)
        self._finish(3 - p, "concede")

    # ------------------------------------------------------------------ legal actions

    def pending(self) -> list[int]:
        """Who must decide now: the player of a pending mid-turn choice, both players during
        the mulligan, else the current player."""
        if self.over:
            return []
        if self.choices:
            return [self.choices[0].player]  # --- hunter --- a mid-turn choice comes first
        if self.step == int(Step.BEGIN_MULLIGAN):
            return [p for p in (1, 2) if self.ents[1 + p][MULLIGAN_STATE] == MULLIGAN_INPUT]
        return [self.current]

    @property
    def pending_choice(self) -> tuple[int, tuple[int, ...]] | None:
        """--- hunter --- The mid-turn choice waiting now: (player, offered entity ids, in
        order), or None. While it waits, its player's CHOOSE actions are all that is legal."""
        if not self.choices or self.over:
            return None
        pick = self.choices[0]
        return pick.player, pick.offered

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

    def _actor(self, a: Action) -> int:
        return a.entity if a.kind in (Kind.MULLIGAN, Kind.CHOOSE) else self.current

    def _generate(self) -> list[Action]:
        if self.over:
            return []
        if self.choices:
            pick = self.choices[0]
            return [Action(Kind.CHOOSE, pick.player, 0, -1, (i,)) for i in pick.offered]
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
        return self._main_options()

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
        elif kind == Kind.CHOOSE:
            self._choose(action.cards[0])
        elif kind == Kind.END_TURN:
            self._end_turn()
        elif kind == Kind.PLAY:
            self._play(action.entity, action.target, action.position, action.cards)
        elif kind == Kind.POWER:
            self._hero_power(action.entity, action.target)
        else:
            self._attack(action.entity, action.target)

    def _choose(self, chosen: int) -> None:
        """--- hunter --- The pick of the oldest pending choice: its card's text goes on
        (in a TRIGGER block of the card), then a death phase as after any action."""
        pick = self.choices.pop(0)
        self._block(B_TRIGGER, pick.source, 0, 0)
        pick.then(self, Ctx(pick.source, 0, pick.player), chosen, pick.offered)
        self._end_block()
        self._deaths()

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
        parts.append((self.hand, self.deck, self.board, self.hero, self.power, self.weapon,
                      self.secrets))
        parts.append(sorted((k, tuple(v)) for k, v in self.triggers.items()))
        parts.append([(a.source, a.defn.enchant_id, a.applied) for a in self.auras])
        parts.append(self.enchants)
        parts.append([(c.player, c.offered, c.source) for c in self.choices])  # --- hunter ---
        parts.append(sorted(self.unseen))
        digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")

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
        """What ``player`` may see (:func:`.view.observation`)."""
        legal = self.legal_actions(player) if player in self.pending() else []
        return view.observation(self, player, legal)

    def entities(self) -> dict[int, tuple[str, dict[int, int]]]:
        """Every entity: id -> (card id, current tags) (:func:`.view.entities`)."""
        return view.entities(self)

    def __repr__(self) -> str:
        return (
            f"<hearth.State turn={self.ents[1][TURN]} step={Step(self.step).name} "
            f"current={self.current} over={self.over}>"
        )


__all__ = ["IllegalAction", "Result", "State"]
