"""Hidden information: hidden cards get identities, decks get an order, and a whole game is
rebuilt from what one player has seen (:meth:`Determinize.from_view`).

:meth:`games.hearth.game.State.determinized` resamples a real game's hidden cards;
``from_view`` starts from a player's entity tree instead (:mod:`.tree` folds one from the
player's history stream), so a bot that only sees its own stream can still search with the
engine's own State. Both draw what the player cannot know from the game's seeded RNG.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Self

from .carddb import COIN, Card, load_cards, pseudo_card
from .core import PendingChoice
from .effects import KEEP_ON_TRANSFORM
from .entity import Entity
from .enums import (
    ATK,
    ATTACHED,
    CLASS,
    CONTROLLER,
    COST,
    CURRENT_PLAYER,
    ENTITY_ID,
    HERO_ENTITY,
    HERO_POWER_ENTITY,
    PLAYSTATE,
    SCRIPT_DATA_NUM_1,
    SCRIPT_DATA_NUM_2,
    SECRET,
    STATE,
    STEP,
    T_ENCHANTMENT,
    T_GAME,
    T_MINION,
    T_PLAYER,
    T_SPELL,
    T_WEAPON,
    Z_DECK,
    Z_GRAVEYARD,
    Z_HAND,
    Z_PLAY,
    Z_SECRET,
    Z_SETASIDE,
    ZONE,
    ZONE_POSITION,
    PlayState,
    Step,
)
from .enums import State as GameState
from .play import Play
from .primitives import ChoiceDone
from .rng import SplitMix64
from .script import attack_is_health

_WON = int(PlayState.WON)
_UNSEEN = (Z_SETASIDE, Z_GRAVEYARD)  # --- hunter --- zones an unseen card may be in
_CONCEDED = int(PlayState.CONCEDED)


class Determinize(Play):
    __slots__ = ()

    def _identify(
        self, ids: Sequence[int], contents: Sequence[tuple[Card, dict[int, int]]]
    ) -> None:
        """Give hidden cards new identities (card and own tags), keeping where they are."""
        for i, (card, own) in zip(ids, contents, strict=True):
            e = self.ents[i]
            keep = {k: e.tags[k] for k in KEEP_ON_TRANSFORM if k in e.tags}
            e.card = card
            e.tags = {**own, **keep}

    def _draw_secrets(self, p: int, ids: Sequence[int]) -> None:
        """``p``'s hidden secrets become distinct secrets of ``p``'s class (a secret's
        identity is hidden, its class and that no two are alike are not); before the
        triggers are registered."""
        if not ids:
            return
        cards = load_cards()
        taken = {self.ents[i].card.id for i in self.secrets[p] if i not in ids}
        drawn = []
        for i in ids:
            # The class is public (the history shows it); a view without it: the hero's.
            e = self.ents[i]
            hero = self.ents[self.ents[1 + p][HERO_ENTITY]]
            cls = e.tags.get(CLASS) or (
                e.card.card_class if e.card.tags.get(SECRET) else hero.card.card_class
            )
            pool = sorted(
                c.id
                for c in cards.values()
                if c.playable and c.tags.get(SECRET) and c.card_class == cls and c.id not in taken
            )
            if not pool:
                raise ValueError(f"entity {i}: no secret of class {cls} left to be")
            cid = pool[self.rng.below(len(pool))]
            taken.add(cid)
            drawn.append((cards[cid], {CLASS: cls}))
        self._identify(ids, drawn)

    def _shuffle_decks(self) -> None:
        for p in (1, 2):
            self.rng.shuffle(self.deck[p])

    @classmethod
    def from_view(
        cls,
        entities: Mapping[int, tuple[str, Mapping[int, int]]],
        player: int,
        seed: int,
        *,
        play_order: Sequence[int] | None = None,
        coin: int = 0,
        opponent_cards: Sequence[str] | None = None,
        turn_cap: int | None = None,
        choice: tuple[int, Sequence[int], int] | None = None,
    ) -> Self:
        """A playable game rebuilt from what ``player`` may see, the rest determinized.

        ``entities``: id -> (card id, {tag: value}) as :func:`.tree.fold` gives it for
        ``state.history(viewer=player)`` ("" = a card ``player`` may not see). As in
        :meth:`determinized`, what ``player`` cannot know is sampled with the seeded RNG:
        the opponent's hidden cards get identities from ``opponent_cards`` (what they may
        still hold, e.g. :meth:`.tree.ViewTree.unseen`; default: any collectible card),
        and both decks are shuffled. Triggers, auras and aura buffs of the board are set
        up as in the real game, so the state plays on like it.

        What tags do not carry comes from the caller (a :class:`.tree.ViewTree` has it):
        ``play_order``, the minions in the order they entered play (without it, entity id
        order stands in); ``coin``, The Coin's id when it is still hidden in the
        opponent's hand (found alone during the mulligan); ``turn_cap`` as in ``new_game``;
        ``choice``, the mid-turn choice open now as its ``entity_choices`` names it
        (player, offered entity ids, source entity), which the history does not hold.
        """
        if player not in (1, 2):
            raise ValueError("player must be 1 or 2")
        if not all(i in entities for i in (1, 2, 3)):
            raise ValueError("the tree lacks the game or a player entity")
        cards = load_cards()
        g = cls()
        g.rng = SplitMix64(seed)
        g.turn_cap = turn_cap
        opp = 3 - player
        hidden: list[int] = []
        secrets: list[int] = []
        for eid in sorted(entities):
            card_id, tags = entities[eid]
            own = {**tags, ENTITY_ID: eid}
            if eid <= 3:
                card = pseudo_card(T_GAME if eid == 1 else T_PLAYER)
            elif card_id:
                if card_id not in cards:
                    raise ValueError(f"entity {eid}: unknown card {card_id!r}")
                card = cards[card_id]
            else:
                zone = own.get(ZONE)
                if own.get(CONTROLLER) != opp or zone not in (Z_HAND, Z_DECK, Z_SECRET, *_UNSEEN):
                    raise ValueError(
                        f"entity {eid} is hidden outside the opponent's hand, deck or secrets"
                    )
                if zone in _UNSEEN:
                    # --- hunter --- a card the opponent looked at and set aside or discarded
                    # unseen (Tracking's): out of the game's way, it needs no identity.
                    g.ents[eid] = Entity(eid, pseudo_card(T_SPELL), own)
                    g.unseen.add(eid)
                    continue
                (secrets if zone == Z_SECRET else hidden).append(eid)
                card = cards[COIN]  # a stand-in until the identities are drawn below
            g.ents[eid] = Entity(eid, card, own)
        g.next_id = max(entities) + 1
        g.step = g.ents[1][STEP]
        g.current = next((p for p in (1, 2) if g.ents[1 + p][CURRENT_PLAYER]), 0)
        if not coin:
            coin = g._find_coin(hidden)
        g.coin = coin
        g._draw_identities(hidden, opponent_cards)
        g._fill_zones(play_order)
        g._draw_secrets(opp, secrets)
        g._shuffle_decks()
        g._start_board()
        g._read_outcome()
        if choice is not None:
            g._reopen_choice(*choice)
        return g

    def _reopen_choice(self, player: int, offered: Sequence[int], source: int) -> None:
        """--- hunter --- The mid-turn choice an ``entity_choices`` names: what the pick
        does comes from the source card's text."""
        src = self.ents.get(source)
        then = None if src is None else _on_pick(src.card.script.play)
        if then is None or player not in (1, 2) or not offered:
            raise ValueError(f"entity {source} offers no mid-turn choice")
        if any(i not in self.ents for i in offered):
            raise ValueError("an offered entity is not in the tree")
        self.choices = [PendingChoice(player, tuple(offered), source, then)]
        self._legal = None

    def _find_coin(self, hidden: Sequence[int]) -> int:
        """The Coin when the tags show it: by its card id, or during the mulligan as the
        last card created (it is made after both decks and the opening hands)."""
        for eid, e in self.ents.items():
            if e.card.id == COIN and eid not in hidden:
                return eid
        if self.step == int(Step.BEGIN_MULLIGAN):
            last = max(self.ents)
            if self.ents[last][ZONE] == Z_HAND:
                return last
        return 0

    def _draw_identities(self, hidden: Sequence[int], pool: Sequence[str] | None) -> None:
        """Hidden cards become cards drawn from ``pool`` (The Coin stays The Coin)."""
        cards = load_cards()
        rest = [i for i in hidden if i != self.coin]
        candidates = list(pool) if pool else sorted(c.id for c in cards.values() if c.playable)
        for cid in candidates:
            if cid not in cards:
                raise ValueError(f"unknown card {cid!r} in opponent_cards")
        drawn = candidates[:]
        self.rng.shuffle(drawn)
        while len(drawn) < len(rest):  # more hidden cards than the belief holds: repeat it
            drawn.append(candidates[self.rng.below(len(candidates))])
        self._identify(rest, [(cards[cid], {}) for cid in drawn[: len(rest)]])
        if self.coin in hidden:
            self._identify([self.coin], [(cards[COIN], {})])

    def _fill_zones(self, play_order: Sequence[int] | None) -> None:
        """Zone lists from ZONE/ZONE_POSITION tags; order of play from ``play_order``."""
        ents = self.ents
        for eid, e in ents.items():
            if eid < 4:
                continue
            p = self.controller(e)
            zone = e.tags.get(ZONE)
            ctype = e.card.type
            if zone == Z_HAND:
                self.hand[p].append(eid)
            elif zone == Z_DECK:
                self.deck[p].append(eid)
            elif zone == Z_SECRET:
                self.secrets[p].append(eid)
            elif zone == Z_PLAY:
                if ctype == T_MINION:
                    self.board[p].append(eid)
                elif ctype == T_WEAPON:
                    self.weapon[p] = eid
                elif ctype == T_ENCHANTMENT:
                    self.enchants.append(eid)
        for p in (1, 2):
            self.hero[p] = ents[1 + p][HERO_ENTITY]
            self.power[p] = ents[1 + p][HERO_POWER_ENTITY]
            self.hand[p].sort(key=lambda i: ents[i][ZONE_POSITION])
            self.secrets[p].sort(key=lambda i: ents[i][ZONE_POSITION])
            self.board[p].sort(key=lambda i: ents[i][ZONE_POSITION])
        if play_order is None:
            play_order = sorted(self.board[1] + self.board[2])
        for n, eid in enumerate(play_order, 1):
            if eid in ents:
                ents[eid].order = n
        self.next_order = len(play_order) + 1

    def _start_board(self) -> None:
        """Register the board's triggers and auras in order of play, apply the auras, and
        keep as own tags only what the auras and the card data do not explain."""
        ents = self.ents
        for eid in self.by_order(self.board[1] + self.board[2]):
            self._register(ents[eid])
        # Weapons and enchantments listen too (Truesilver Champion, Corruption).
        secrets = self.secrets[1] + self.secrets[2]  # each side's in the order played
        for eid in sorted(w for w in self.weapon[1:] if w) + sorted(self.enchants) + secrets:
            self._register(ents[eid])
        # --- rogue --- a spell in the graveyard that comes back at its owner's next turn
        # (Headcrack's combo left its public mark): it listens from there as in the game.
        for eid in sorted(ents):
            e = ents[eid]
            if e.tags.get(ZONE) == Z_GRAVEYARD and any(
                t.zone == Z_GRAVEYARD
                and (t.when is None or t.when(self, eid, 1 + self.controller(e)))
                for t in e.card.script.triggers
            ):
                self._listen_in(e, Z_GRAVEYARD)
        # --- costs: a card in hand shows its effective cost; its own COST is its card's
        # with the cost enchantments on it, then it is stored as aura-inclusive like the
        # other own tags here (the loop below takes the aura part off again).
        hands = [ents[i] for i in self.hand[1] + self.hand[2]]
        for e in hands:
            self._rebase_cost(e)
        based: set[int] = set()  # own ATK rebuilt already, not read off the view
        for inst in self.auras:
            if inst.defn.sel is attack_is_health:
                # The view shows only the set Attack: the own one is the card's with the
                # enchantments' deltas (what a Silence leaves), the aura the rest.
                e = ents[inst.source]
                e.tags[ATK] = self._own_attack(e)
                self.aura_dirty = True
                based.add(e.id)
        self._update_auras()
        for e in hands:
            e.tags[COST] = e[COST]
        for e in ents.values():
            if e.aura:
                for tag, d in e.aura.items():
                    if not (tag == ATK and e.id in based):
                        e.tags[tag] = e.tags.get(tag, 0) - d
            card_tags = e.card.tags
            e.tags = {t: v for t, v in e.tags.items()
                      if t in KEEP_ON_TRANSFORM or card_tags.get(t) != v}
        self._legal = None

    def _own_attack(self, e: Entity) -> int:
        """The Attack a minion has of its own: its card's with its enchantments' changes,
        in the order they came (a stat swap sets it, as Crazed Alchemist's records in
        TAG_SCRIPT_DATA_NUM_1; a set-stat's loss is marked by TAG_SCRIPT_DATA_NUM_2)."""
        ents = self.ents
        atk = e.card.atk
        for i in sorted(x for x in self.enchants if ents[x][ATTACHED] == e.id):
            x = ents[i]
            script = x.card.script
            if script.swaps_stats:
                atk = x[SCRIPT_DATA_NUM_1]
                continue
            if script.stats_from_data:
                atk += x[SCRIPT_DATA_NUM_1]
                continue
            mult = x[SCRIPT_DATA_NUM_1] if script.scaled else 1
            if script.scaled and x[SCRIPT_DATA_NUM_2]:
                mult = -mult
            atk += sum(d * mult for tag, d in script.buff if tag == ATK)
        return atk

    def _read_outcome(self) -> None:
        players = {p: self.ents[1 + p][PLAYSTATE] for p in (1, 2)}
        if self.ents[1][STATE] != int(GameState.COMPLETE):
            return
        self.over = True
        won = [p for p in (1, 2) if players[p] == _WON]
        self.winner = won[0] if won else 0
        if _CONCEDED in players.values():
            self.reason = "concede"
        elif won:
            self.reason = "hero died"
        elif all(self.health(self.hero[p]) <= 0 for p in (1, 2)):
            self.reason = "both heroes died"
        else:
            self.reason = "turn cap"
        self._legal = []


def _on_pick(effect: object) -> ChoiceDone | None:
    """What the first mid-turn choice of ``effect`` does with the pick (an effect that
    offers one carries it as ``on_pick``; a sequence is searched in order)."""
    pick: ChoiceDone | None = getattr(effect, "on_pick", None)
    if pick is not None:
        return pick
    for part in getattr(effect, "effects", ()):
        pick = _on_pick(part)
        if pick is not None:
            return pick
    return None


__all__ = ["Determinize"]
