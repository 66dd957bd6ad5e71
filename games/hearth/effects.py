"""The effect primitives (SabberStone's ``Actions/Generic.cs``): what card behaviour does.

These are the methods of :class:`~.primitives.Primitives` (damage, heal, draw, summon,
enchantments, silence, transform, ...) plus the two ways a minion enters the board. Each
changes tags through :meth:`Core._set` / :meth:`Core._move` (so history is written and the
cached legal actions dropped) and fires its event; queued triggers and the death phase run
later, when the whole effect has finished (:mod:`.game`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .carddb import Card, load_cards
from .core import PendingChoice
from .entity import Entity
from .enums import (
    ARMOR,
    ATK,
    ATTACHED,
    ATTACKING,
    B_FATIGUE,
    B_TRIGGER,
    CANT_ATTACK,
    CANT_BE_TARGETED_BY_HERO_POWERS,
    CANT_BE_TARGETED_BY_SPELLS,
    CANT_PLAY,
    CARD_TARGET,
    CARDRACE,
    CHARGE,
    CONTROLLER,
    COPIED_FROM_ENTITY_ID,
    COST,
    DAMAGE,
    DEATHRATTLE,
    DIVINE_SHIELD,
    DURABILITY,
    ENRAGED,
    ENTITY_ID,
    EXHAUSTED,
    FATIGUE,
    FROZEN,
    HEALING_DOES_DAMAGE,
    HEALTH,
    HEALTH_MINIMUM,
    HERO_ENTITY,
    HERO_POWER_DOUBLE,
    HERO_POWER_ENTITY,
    IMMUNE,
    IMMUNE_WHILE_ATTACKING,
    LIFESTEAL,
    M_DAMAGE,
    M_HEALING,
    MAX_BOARD,
    MAX_HAND,
    MAX_MANA,
    NUM_ATTACKS_THIS_TURN,
    NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_GAME,
    NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN,
    POISONOUS,
    PROPOSED_DEFENDER,
    RARITY,
    RESOURCES,
    RESOURCES_USED,
    SCRIPT_DATA_NUM_1,
    SCRIPT_DATA_NUM_2,
    SCRIPT_DATA_NUM_3,
    SCRIPT_DATA_NUM_4,
    SILENCED,
    SPELL_HEALING_DOUBLE,
    SPELLPOWER,
    SPELLPOWER_DOUBLE,
    T_HERO,
    T_HERO_POWER,
    T_MINION,
    T_PLAYER,
    T_SPELL,
    T_WEAPON,
    TAUNT,
    TEMP_RESOURCES,
    TO_BE_DESTROYED,
    WINDFURY,
    Z_DECK,
    Z_GRAVEYARD,
    Z_HAND,
    Z_PLAY,
    Z_SECRET,
    Z_SETASIDE,
    ZONE,
    ZONE_POSITION,
)
from .primitives import ChoiceDone, Ctx
from .script import EV_DAMAGED, EV_FATAL_DAMAGE, EV_HEALED, EV_SUMMONED
from .triggers import Triggers

# Tags Silence resets (the card's printed keywords and everything enchantments gave).
SILENCE_CLEARS = (
    TAUNT,
    DIVINE_SHIELD,
    CHARGE,
    WINDFURY,
    SPELLPOWER,
    DEATHRATTLE,
    ENRAGED,
    FROZEN,
    CANT_ATTACK,  # Ancient Watcher (and Ragnaros) may attack once silenced
    CANT_BE_TARGETED_BY_SPELLS,
    CANT_BE_TARGETED_BY_HERO_POWERS,
)
# Own tags a transform keeps (the rest is rebuilt from the new card).
KEEP_ON_TRANSFORM = (ZONE, ZONE_POSITION, CONTROLLER, ENTITY_ID)
# --- rogue --- tags an enchantment's removal may take below 0 (the rest are keywords).
_STATS = frozenset({ATK, HEALTH, DURABILITY, COST})
# Which controller tag doubles the damage of a source of each card type (Prophet Velen).
_DOUBLING = {T_SPELL: SPELLPOWER_DOUBLE, T_HERO_POWER: HERO_POWER_DOUBLE}


class Effects(Triggers):
    __slots__ = ()
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
        self.aura_dirty = True  # --- costs: hand costs may change (Mountain Giant)
        return eid

    def give(self, p: int, card_id: str) -> int:
        """Create ``card_id`` in ``p``'s hand (scenario set-up and future 'add to hand' effects)."""
        if len(self.hand[p]) >= MAX_HAND:
            return 0
        e = self._create(load_cards()[card_id], p, Z_HAND)
        self.hand[p].append(e.id)
        self._set(e, ZONE_POSITION, len(self.hand[p]))
        self.aura_dirty = True  # --- costs
        return e.id

    def _keywords_of(self, source: int) -> Entity | None:
        """The entity whose Lifesteal and Poisonous apply to damage from ``source``: a hero
        deals its weapon's (Aldrachi Warblades), anything else its own."""
        src = self.ents.get(source)
        if src is not None and src.card.type == T_HERO:
            w = self.weapon[self.controller(src)]
            return self.ents[w] if w else None
        return src

    def damage(self, source: int, target: int, amount: int) -> int:
        """Deal damage; returns the damage actually dealt (0 when a Divine Shield absorbs
        it or the target is Immune). Damage from a Lifesteal source heals its controller's
        hero by the amount dealt; from a Poisonous source it destroys a minion."""
        if amount <= 0:
            return 0
        src = self.ents.get(source)
        if src is not None and src.card.type in _DOUBLING:  # Prophet Velen
            amount <<= self.player_tag(self.controller(src), _DOUBLING[src.card.type])
        e = self.ents[target]
        if e[IMMUNE] or (e[IMMUNE_WHILE_ATTACKING] and e[ATTACKING]):  # Gladiator's Longbow
            return 0
        if e.tags.get(DIVINE_SHIELD) or (
            DIVINE_SHIELD not in e.tags and e.card.tags.get(DIVINE_SHIELD)
        ):
            self._set(e, DIVINE_SHIELD, 0)
            return 0
        if e.card.type == T_HERO:
            armor = e[ARMOR]
            if amount - armor >= e[HEALTH] - e[DAMAGE] and self._prevented(target):
                return 0
            if armor:
                absorbed = min(armor, amount)
                self._set(e, ARMOR, armor - absorbed)
                amount -= absorbed
                if not amount:
                    return 0
        if e.card.type == T_MINION and self.ents[1 + self.controller(e)][HEALTH_MINIMUM]:
            # Commanding Shout: this turn the minion keeps at least 1 Health.
            amount = min(amount, e[HEALTH] - e[DAMAGE] - 1)
            if amount <= 0:
                return 0
        self._set(e, DAMAGE, e[DAMAGE] + amount)
        self.maybe_dead = True
        if self.hist is not None:
            self.hist.meta_data(M_DAMAGE, amount, [target])
        if e.card.script.auras or e.card.type == T_HERO:  # --- costs: Molten Giant
            self.aura_dirty = True
        keywords = self._keywords_of(source)
        if keywords is not None:
            if keywords[POISONOUS] and e.card.type == T_MINION:
                self.destroy(target)
            own = self.hero[self.controller(keywords)]
            # Auchenai turns the Lifesteal heal into damage to the own hero, once (SabberStone).
            if keywords[LIFESTEAL] and not (
                target == own and self.player_tag(self.controller(keywords), HEALING_DOES_DAMAGE)
            ):
                self.heal(source, own, amount)
        self._fire(EV_DAMAGED, target, source, amount)
        return amount

    def _prevented(self, hero: int) -> bool:
        """The hero is about to take fatal damage (after armor): "when your hero takes fatal
        damage" triggers run at once, before the damage (SabberStone's PREDAMAGE with
        FastExecution: Ice Block); the damage is prevented if the hero is Immune then."""
        if not self.triggers.get(EV_FATAL_DAMAGE):
            return False
        held, self.queue = self.queue, []
        self._fire(EV_FATAL_DAMAGE, hero)
        self._resolve()
        self.queue = held + self.queue
        return bool(self.ents[hero][IMMUNE])

    def heal(self, source: int, target: int, amount: int) -> int:
        src = self.ents.get(source)
        if src is not None and src.card.type != T_PLAYER:
            p = self.controller(src)
            if self.player_tag(p, HEALING_DOES_DAMAGE):
                # Auchenai: the heal is damage, even to an undamaged character; Velen's
                # doubling then comes from damage() (it doubles both the same way).
                return self.damage(source, target, amount)
            if src.card.type in _DOUBLING:
                amount <<= self.player_tag(p, SPELL_HEALING_DOUBLE)
        e = self.ents[target]
        healed = min(e[DAMAGE], amount)
        if healed <= 0:
            return 0
        self._set(e, DAMAGE, e[DAMAGE] - healed)
        if self.hist is not None:
            self.hist.meta_data(M_HEALING, healed, [target])
        if e.card.script.auras or e.card.type == T_HERO:  # --- costs: Molten Giant
            self.aura_dirty = True
        self._fire(EV_HEALED, target, source)
        return healed

    def leave_health(self, target: int, health: int) -> None:
        """Set the damage so that exactly ``health`` is left (Redemption's 1 Health); no
        damage event: nothing was dealt."""
        e = self.ents[target]
        self._set(e, DAMAGE, max(0, e[HEALTH] - health))
        self.maybe_dead = True
        self.aura_dirty = True  # --- costs: Molten Giant reads the hero's damage (Alexstrasza)

    def redirect_attack(self, defender: int) -> None:
        """The attack being declared goes to ``defender`` instead (Misdirection, Noble
        Sacrifice); only an ``EV_ATTACK`` trigger may call it."""
        self._set(self.ents[1], PROPOSED_DEFENDER, defender)

    def counter(self, spell: int) -> None:
        """The spell being cast does nothing (Counterspell): its cost stays paid."""
        self._set(self.ents[spell], CANT_PLAY, 1)

    def retarget(self, spell: int, target: int) -> None:
        """The spell being cast hits ``target`` instead (Spellbender)."""
        self._set(self.ents[spell], CARD_TARGET, target)

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

    def gain_mana_crystal(self, p: int, amount: int = 1, full: bool = False) -> int:
        """Gain Mana Crystals, empty (Wild Growth) or ``full`` (Nourish), never above 10;
        returns how many."""
        pe = self.ents[1 + p]
        gain = min(amount, MAX_MANA - pe[RESOURCES])
        if gain > 0:
            self._set(pe, RESOURCES, pe[RESOURCES] + gain)
            if not full:
                self._set(pe, RESOURCES_USED, pe[RESOURCES_USED] + gain)
        return max(0, gain)

    def set_stat(self, card_id: str, target: int, source: int, tag: int, value: int) -> int:
        """Set stats (Humility, Hunter's Mark): a scaled enchantment ``card_id`` (delta 1)
        whose scale makes the own value ``value`` (auras still apply on top); Silence undoes
        it. Setting HEALTH also clears the damage, so the minion has exactly ``value``."""
        t = self.ents[target]
        if t[ZONE] != Z_PLAY:
            return 0
        # A log holds no negative value: the size of the change is TAG_SCRIPT_DATA_NUM_1,
        # TAG_SCRIPT_DATA_NUM_2 = 1 marks a loss (remove_enchantment undoes either).
        delta = value - t.base(tag)
        eid = self.add_enchantment(card_id, target, source, 0)
        if not eid:
            return 0
        e = self.ents[eid]
        if delta:
            self._set(e, SCRIPT_DATA_NUM_1, abs(delta))
            if delta < 0:
                self._set(e, SCRIPT_DATA_NUM_2, 1)
            self._set(t, tag, t.base(tag) + delta)
        if tag == HEALTH and t[DAMAGE]:
            self._set(t, DAMAGE, 0)
        return eid

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

    def add_enchantment(self, card_id: str, target: int, source: int, scale: int = 0) -> int:
        """Attach enchantment ``card_id`` (a new entity) to ``target`` and apply its deltas;
        a card in hand may get one too (a cost enchantment: Far Sight, Shadowstep)."""
        t = self.ents[target]
        if t[ZONE] != Z_PLAY and t[ZONE] != Z_HAND:
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
            if tag == COST:  # --- costs: one TAG_CHANGE with the effective cost
                self._set_base_cost(t, t.base(tag) + d * mult)
                continue
            self._set(t, tag, t.base(tag) + d * mult)
        if script.triggers or script.auras:  # --- costs: a one-shot cost aura
            self._register(e)
        if script.buff:
            self.aura_dirty = True  # an aura may read what it gave (Warsong Commander: Charge)
        return e.id

    def _weapon_gone(self, p: int) -> None:
        """``p``'s weapon leaves play (broken, destroyed or replaced); its deathrattle
        (Death's Bite) runs in a TRIGGER block of its own. The caller closes any DEATHS
        block first: a real log never nests a block in one."""
        w = self.weapon[p]
        e = self.ents[w]
        self.weapon[p] = 0
        self.aura_dirty = True  # an aura may buff the weapon or read that there is one
        self._unregister(e)
        for ench in self._attached(w):
            self._drop_enchantment(ench)
        self._move(e, Z_GRAVEYARD)
        dr = e.card.script.deathrattle
        if dr is not None:
            self._block(B_TRIGGER, w, 0, 0)
            dr.run(self, Ctx(w, 0, p))
            self._end_block()

    def equip(self, p: int, card_id: str, creator: int = 0) -> int:
        """A new weapon ``card_id`` for ``p`` (Dagger Mastery, Arathi Weaponsmith); the old
        one is destroyed."""
        e = self._create(load_cards()[card_id], p, Z_PLAY, creator=creator)
        self._equip(e, p)
        return e.id

    def _equip(self, e: Entity, p: int) -> None:
        if self.weapon[p]:
            self._weapon_gone(p)
        self._set(e, ZONE_POSITION, 0)
        if e[ZONE] != Z_PLAY:
            self._move(e, Z_PLAY)
        self.weapon[p] = e.id
        self.aura_dirty = True  # an aura may buff the weapon or read that there is one
        self._register(e)

    # -- Discard (Soulfire, Felstalker) and keywords given by a card (Windfury)

    def discard(self, p: int, card: int) -> None:
        """``card`` leaves ``p``'s hand for the graveyard; the zone change reveals it to the
        opponent (a real game shows the discarded card)."""
        hand = self.hand[p]
        if card not in hand:
            return
        hand.remove(card)
        e = self.ents[card]
        self._set(e, ZONE_POSITION, 0)
        self._move(e, Z_GRAVEYARD)
        self._positions(hand)
        self.aura_dirty = True  # --- costs
        for x in self._attached(card):  # a cost enchantment goes with the card
            self._drop_enchantment(x)

    def set_tag(self, target: int, tag: int, value: int) -> None:
        """Give an entity in play a keyword tag (Windfury); Silence clears it again."""
        e = self.ents[target]
        if e[ZONE] == Z_PLAY and e.base(tag) != value:
            self._set(e, tag, value)
            self.aura_dirty = True

    def _drop_enchantment(self, eid: int) -> None:
        """An enchantment goes with the entity it was attached to (no deltas undone)."""
        e = self.ents[eid]
        if eid in self.enchants:
            self.enchants.remove(eid)
        if e.card.script.triggers or e.card.script.auras:  # --- costs: one-shot auras
            self._unregister(e)
        self._move(e, Z_GRAVEYARD)

    def remove_enchantment(self, eid: int) -> None:
        """Detach an enchantment, undoing its deltas (health: current = min(current, max))."""
        e = self.ents[eid]
        if eid in self.enchants:
            self.enchants.remove(eid)
        if e.card.script.triggers or e.card.script.auras:  # --- costs: one-shot auras
            self._unregister(e)
        t = self.ents[e[ATTACHED]]
        script = e.card.script
        mult = e[SCRIPT_DATA_NUM_1] if script.scaled else 1
        if e[SCRIPT_DATA_NUM_2]:
            mult = -mult  # a set-stat enchantment that lowered the value
        for tag, d in script.buff:
            if tag == COST:  # --- costs
                self._set_base_cost(t, t.base(tag) - d * mult)
                continue
            value = t.base(tag) - d * mult
            if tag not in _STATS and value < 0:
                # --- rogue --- a keyword lost meanwhile (Stealth until your next turn, gone
                # with an attack) is not taken twice: a keyword is never below 0.
                value = 0
            self._set(t, tag, value)
            if tag == HEALTH and d * mult > 0:
                self._lose_health(t, d * mult)
        if script.swaps_stats:
            self._undo_swap(e, t)
        if script.stats_from_data:
            self._undo_data_stats(e, t)
        self._move(e, Z_GRAVEYARD)
        if script.on_removed is not None:
            # Shadow Madness: the minion goes back, also when a Silence removes it, as
            # SabberStone's Silence does.
            script.on_removed.run(self, Ctx(eid, t.id, self.controller(e)))

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
            self._drop_enchantment(i)
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
        copies = [(self.ents[i].card, self._script_data(i)) for i in self._attached(target)]
        self._reset_to(e, t.card, own)
        # The copied damage without the original's aura health may leave the copy dead.
        self.maybe_dead = True
        for card, data in copies:
            # The deltas are already in the copied tags: attach without re-applying them.
            ench = self._create(card, self.controller(e), Z_PLAY, attached=source, creator=source)
            for tag, value in data:
                self._set(ench, tag, value)
            self.enchants.append(ench.id)
            if card.script.triggers:
                self._register(ench)  # a copied Corruption still destroys the copy

    # --- control ---

    def player_tag(self, p: int, tag: int) -> int:
        """What ``p``'s minions in play (not silenced) give ``p`` of ``tag``."""
        ents = self.ents
        n = 0
        for i in self.board[p]:
            e = ents[i]
            given = e.card.script.player_tags
            if given and not e.tags.get(SILENCED):
                n += sum(v for t, v in given if t == tag)
        return n

    def take_control(self, target: int, p: int) -> bool:
        """``p`` takes minion ``target`` (SabberStone's ControlTask): it goes to the right
        end of ``p``'s board with its tags, enchantments and place in the order of play, and
        has summoning sickness unless it has Charge. False (nothing moves) when the minion
        is not on the other board or ``p``'s board is full."""
        e = self.ents[target]
        old = self.controller(e)
        if old == p or target not in self.board[old] or len(self.board[p]) >= MAX_BOARD:
            return False
        self.board[old].remove(target)
        self._positions(self.board[old])
        self._set(e, CONTROLLER, p)
        self.board[p].append(target)
        self._positions(self.board[p])
        self._set(e, EXHAUSTED, 1)
        if e[NUM_ATTACKS_THIS_TURN]:
            self._set(e, NUM_ATTACKS_THIS_TURN, 0)  # its attacks were its old owner's
        self.aura_dirty = True
        return True

    def base_tag(self, eid: int, tag: int) -> int:
        return self.ents[eid].base(tag)

    def give_copy(self, p: int, original: int) -> int:
        eid = self.give(p, self.ents[original].card.id)
        if eid:
            self._set(self.ents[eid], COPIED_FROM_ENTITY_ID, original)
        return eid

    # --- neutralA

    def _script_data(self, eid: int) -> list[tuple[int, int]]:
        """What an enchantment records of its effect (a scale, a set-stat's loss marker,
        a swap's values), for a copy of it to undo the same (Faceless Manipulator)."""
        e = self.ents[eid]
        tags = (SCRIPT_DATA_NUM_1, SCRIPT_DATA_NUM_2, SCRIPT_DATA_NUM_3, SCRIPT_DATA_NUM_4)
        return [(tag, e[tag]) for tag in tags if e[tag]]

    def swap_attack_health(self, card_id: str, target: int, source: int) -> int:
        """Crazed Alchemist: the minion's current Attack becomes its Health (undamaged) and
        its current Health its Attack, through enchantment ``card_id``. As with
        :meth:`set_stat`, the values become the minion's own (auras apply on top). The
        enchantment records the values set (TAG_SCRIPT_DATA_NUM_1/2, as a real log shows
        them) and the ones replaced (NUM_3/4), so Silence can undo the swap."""
        t = self.ents[target]
        if t[ZONE] != Z_PLAY or t.card.type != T_MINION:
            return 0
        atk, health = t[ATK], t[HEALTH] - t[DAMAGE]
        old_atk, old_health = t.base(ATK), t.base(HEALTH)
        eid = self.add_enchantment(card_id, target, source, 0)
        if not eid:
            return 0
        e = self.ents[eid]
        for tag, value in (
            (SCRIPT_DATA_NUM_1, health),
            (SCRIPT_DATA_NUM_2, atk),
            (SCRIPT_DATA_NUM_3, old_atk),
            (SCRIPT_DATA_NUM_4, old_health),
        ):
            if value:
                self._set(e, tag, value)
        self._set(t, ATK, health)
        self._set(t, HEALTH, atk)
        if t[DAMAGE]:
            self._set(t, DAMAGE, 0)
        self.maybe_dead = True  # a 0-Attack minion is left with 0 Health
        self.aura_dirty = True
        return eid

    def _undo_swap(self, ench: Entity, t: Entity) -> None:
        """Silence (or a one-turn removal) takes a swap back: each stat goes back by what
        the swap changed, later buffs kept; health lost this way is taken off the damage
        as for any lost maximum."""
        d_atk = ench[SCRIPT_DATA_NUM_3] - ench[SCRIPT_DATA_NUM_1]
        d_health = ench[SCRIPT_DATA_NUM_4] - ench[SCRIPT_DATA_NUM_2]
        if d_atk:
            self._set(t, ATK, t.base(ATK) + d_atk)
        if d_health:
            self._set(t, HEALTH, t.base(HEALTH) + d_health)
            if d_health < 0:
                self._lose_health(t, -d_health)
        self.aura_dirty = True

    def swap_with_hand(self, minion: int, card: int) -> int:
        """Alarm-o-Bot: ``minion`` leaves the board for its owner's hand and the minion card
        ``card`` from that hand is summoned into the slot it left (no battlecry; summoning
        sick). The card back in hand is a new entity of the same card (the old one is set
        aside with its enchantments gone), so the opponent, who saw it on the board, does
        not see which card in the hand it is: a returned card is as hidden as a drawn one.
        Returns the new card's id in hand (0 when either is not where it should be)."""
        e, c = self.ents[minion], self.ents[card]
        p = self.controller(e)
        board, hand = self.board[p], self.hand[p]
        if minion not in board or card not in hand or c.card.type != T_MINION:
            return 0
        slot = board.index(minion)
        board.remove(minion)
        self._unregister(e)
        for i in self._attached(minion):
            self._drop_enchantment(i)
        self._set(e, ZONE_POSITION, 0)
        self._move(e, Z_SETASIDE)
        self.aura_dirty = True
        hand.remove(card)
        self._set(c, ZONE_POSITION, 0)
        self._positions(hand)
        self._enter_board(c, p, slot)
        back = self._create(e.card, p, Z_HAND)
        hand.append(back.id)
        self._set(back, ZONE_POSITION, len(hand))
        self._fire(EV_SUMMONED, card)
        return back.id

    # --- neutralB ---

    def damage_weapon(self, weapon: int, amount: int) -> None:
        """Remove Durability (Bloodsail Corsair): DAMAGE on the weapon, as an attack does."""
        e = self.ents[weapon]
        if amount > 0 and e[ZONE] == Z_PLAY and e.card.type == T_WEAPON:
            self._set(e, DAMAGE, e[DAMAGE] + amount)
            self.maybe_dead = True

    def card_pool(self, card_type: int, race: int = 0, rarity: int = 0) -> Sequence[str]:
        """Collectible cards the engine plays (declared ones: an undeclared card would act
        as a vanilla one), of ``card_type`` and, when given, ``race`` and ``rarity``."""
        key = (card_type, race, rarity)
        pool = _POOLS.get(key)
        if pool is None:
            pool = _POOLS[key] = tuple(
                c.id
                for c in sorted(load_cards().values(), key=lambda c: c.id)
                if c.playable
                and c.type == card_type
                and (not race or c.tags.get(CARDRACE) == race)
                and (not rarity or c.tags.get(RARITY) == rarity)
            )
        return pool

    def draw_card(self, p: int, card: int) -> int:
        """Draw a chosen card of ``p``'s deck (Captain's Parrot); overdraw burns it."""
        deck = self.deck[p]
        if card not in deck:
            return 0
        deck.remove(card)
        e = self.ents[card]
        if len(self.hand[p]) >= MAX_HAND:
            self._move(e, Z_GRAVEYARD)
            return 0
        self.hand[p].append(card)
        self._move(e, Z_HAND)
        self._set(e, ZONE_POSITION, len(self.hand[p]))
        self.aura_dirty = True  # --- costs
        return card

    def _record_death(self, e: Entity, p: int) -> None:
        """A minion of ``p`` died: the player's counters, as a real log writes them; the
        dead minion keeps the game count, so the graveyard knows the order of death."""
        pe = self.ents[1 + p]
        died = pe[NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN] + 1
        self._set(pe, NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN, died)
        n = pe[NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_GAME] + 1
        self._set(pe, NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_GAME, n)
        self._set(e, NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_GAME, n)

    def died_this_turn(self, p: int) -> list[int]:
        """``p``'s minions that died this turn, in order of death (High Inquisitor
        Whitemane); the counter restarts at ``p``'s MAIN_READY."""
        pe = self.ents[1 + p]
        n = pe[NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN]
        if not n:
            return []
        first = pe[NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_GAME] - n
        dead = [
            e
            for e in self.ents.values()
            if e.tags.get(NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_GAME, 0) > first
            and e.card.type == T_MINION
            and e[ZONE] == Z_GRAVEYARD
            and self.controller(e) == p
        ]
        dead.sort(key=lambda e: e.tags[NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_GAME])
        return [e.id for e in dead]


    # --- warlock ---

    def _set_aside(self, e: Entity) -> None:
        """``e`` leaves play for the SETASIDE zone (SabberStone's SetasideZone), with its
        triggers, auras and enchantments."""
        self._unregister(e)
        for i in self._attached(e.id):
            self._drop_enchantment(i)
        if e[ZONE_POSITION]:
            self._set(e, ZONE_POSITION, 0)
        self._move(e, Z_SETASIDE)

    def replace_hero(self, p: int, hero_card_id: str, source: int, weapon_card_id: str = "") -> int:
        """SabberStone's ReplaceHeroTask (Lord Jaraxxus): the source minion, the hero and its
        hero power go to SETASIDE; a fresh hero ``hero_card_id`` (the card data's Health; no
        damage, armor, attack or freeze carried over) and the hero power its card data names
        come into play, unused; then ``weapon_card_id`` is equipped (the old weapon is
        destroyed). Returns the new hero's id."""
        cards = load_cards()
        src = self.ents.get(source)
        if src is not None and src.card.type == T_MINION and source in self.board[p]:
            board = self.board[p]
            board.remove(source)
            self._set_aside(src)
            self._positions(board)
            self.aura_dirty = True
        card = cards[hero_card_id]
        pe = self.ents[1 + p]
        self._set_aside(self.ents[self.hero[p]])
        hero = self._create(card, p, Z_PLAY, creator=source)
        self.hero[p] = hero.id
        self._set(pe, HERO_ENTITY, hero.id)
        self.replace_hero_power(p, card.hero_power, hero.id)
        if weapon_card_id:
            self.equip(p, weapon_card_id, creator=source)
        self.aura_dirty = True
        return hero.id

    def replace_hero_power(self, p: int, card_id: str, creator: int = 0) -> int:
        """SabberStone's ReplaceHeroPower (Shadowform): the hero power goes to SETASIDE and
        a new one, not used this turn, takes its place."""
        old = self.ents[self.power[p]]
        self._set_aside(old)
        power = self._create(load_cards()[card_id], p, Z_PLAY, creator=creator or self.hero[p])
        self.power[p] = power.id
        self._set(self.ents[1 + p], HERO_POWER_ENTITY, power.id)
        self._register(power)
        return power.id

    def lose_mana_crystal(self, p: int, amount: int = 1) -> None:
        """SabberStone's ChangeManaCrystal(-n): crystals go, and as many spent ones with
        them, so the mana left this turn stays (never below 0 crystals)."""
        pe = self.ents[1 + p]
        lost = min(amount, pe[RESOURCES])
        if lost <= 0:
            return
        self._set(pe, RESOURCES, pe[RESOURCES] - lost)
        used = pe[RESOURCES_USED]
        if used:
            self._set(pe, RESOURCES_USED, max(0, used - lost))

    def add_stats_enchantment(
        self, card_id: str, target: int, source: int, atk: int, health: int
    ) -> int:
        """Attach ``card_id`` (declared ``stats_from_data``) giving +atk/+health, kept in its
        TAG_SCRIPT_DATA_NUM_1 and _2 (Void Terror's Consume) so that Silence undoes them."""
        eid = self.add_enchantment(card_id, target, source, 0)
        if not eid:
            return 0
        e, t = self.ents[eid], self.ents[target]
        if atk:
            self._set(e, SCRIPT_DATA_NUM_1, atk)
            self._set(t, ATK, t.base(ATK) + atk)
        if health:
            self._set(e, SCRIPT_DATA_NUM_2, health)
            self._set(t, HEALTH, t.base(HEALTH) + health)
        self.aura_dirty = True
        return eid

    def _undo_data_stats(self, e: Entity, t: Entity) -> None:
        atk, health = e[SCRIPT_DATA_NUM_1], e[SCRIPT_DATA_NUM_2]
        if atk:
            self._set(t, ATK, t.base(ATK) - atk)
        if health:
            self._set(t, HEALTH, t.base(HEALTH) - health)
            self._lose_health(t, health)

    # --- hunter --- mid-turn choices (Tracking, Sightless Watcher) and destroyed secrets

    def offer_choice(
        self, p: int, source: int, offered: Sequence[int], then: ChoiceDone
    ) -> None:
        if offered:
            self.choices.append(PendingChoice(p, tuple(offered), source, then))
            self._legal = None

    def _move_unseen(self, e: Entity, zone: int) -> None:
        """A zone change the owner's opponent sees without learning the card."""
        old = e[ZONE]
        e.tags[ZONE] = zone
        self._legal = None
        if zone in (Z_HAND, Z_DECK):
            self.unseen.discard(e.id)  # hidden by its zone again
        else:
            self.unseen.add(e.id)
        if self.hist is not None and old != zone:
            self.hist.zone_change(e, old, unseen=True)

    def set_aside_unseen(self, card: int) -> None:
        e = self.ents[card]
        deck = self.deck[self.controller(e)]
        if card in deck:
            deck.remove(card)
            self._move_unseen(e, Z_SETASIDE)

    def take_into_hand(self, p: int, card: int) -> int:
        e = self.ents[card]
        if e[ZONE] != Z_SETASIDE:
            return 0
        if len(self.hand[p]) >= MAX_HAND:
            self._move_unseen(e, Z_GRAVEYARD)  # overdraw burns it
            return 0
        self.hand[p].append(card)
        self._move_unseen(e, Z_HAND)
        self._set(e, ZONE_POSITION, len(self.hand[p]))
        self.aura_dirty = True  # --- costs: a hand aura reaches it (Pint-Sized Summoner)
        return card

    def discard_unseen(self, card: int) -> None:
        e = self.ents[card]
        if e[ZONE] == Z_SETASIDE:
            self._move_unseen(e, Z_GRAVEYARD)

    def put_on_top(self, p: int, card: int) -> None:
        deck = self.deck[p]
        if card in deck:
            deck.remove(card)
            deck.append(card)

    def destroy_secret(self, secret: int) -> None:
        e = self.ents[secret]
        if e[ZONE] == Z_SECRET:
            self._reveal_secret(e)  # to the graveyard, shown; no EV_SECRET_REVEALED


    # --- rogue --- return to hand (Sap, Vanish, Freezing Trap) and Headcrack's return

    def return_to_hand(self, minion: int) -> int:
        """SabberStone's ReturnToHandBlock: ``minion`` leaves its controller's board for
        their hand as a fresh card (a new entity of its card, as :meth:`swap_with_hand`
        makes: damage, enchantments and every changed tag gone; the old entity is set aside,
        hidden from the opponent like a drawn card). Its triggers and auras stop at once.
        A full hand (10): the minion goes to the graveyard without dying (no deathrattle,
        no "whenever a minion dies", no death counted). Returns the card in hand (0: none)."""
        e = self.ents[minion]
        p = self.controller(e)
        board = self.board[p]
        if minion not in board:
            return 0
        board.remove(minion)
        self._unregister(e)
        for i in self._attached(minion):
            self._drop_enchantment(i)
        self._set(e, ZONE_POSITION, 0)
        self._positions(board)
        self.aura_dirty = True
        hand = self.hand[p]
        if len(hand) >= MAX_HAND:
            self._move(e, Z_GRAVEYARD)
            return 0
        self._move(e, Z_SETASIDE)
        back = self._create(e.card, p, Z_HAND)
        hand.append(back.id)
        self._set(back, ZONE_POSITION, len(hand))
        return back.id

    def listen_from_graveyard(self, card: int) -> None:
        """``card`` (a spell being cast) will hear its graveyard triggers once there."""
        self._listen_in(self.ents[card], Z_GRAVEYARD)

    def return_from_graveyard(self, card: int) -> int:
        """A card in the graveyard comes back to its controller's hand as a fresh card, a
        new entity of its card (fireplace's Headcrack gives a new copy; the one in the
        graveyard stays there, its mark and its listening gone), hidden from the opponent
        like any card in hand. A full hand: nothing comes back. Returns the new card."""
        e = self.ents[card]
        if e[ZONE] != Z_GRAVEYARD:
            return 0
        self._unregister(e)
        if e[SCRIPT_DATA_NUM_1]:
            self._set(e, SCRIPT_DATA_NUM_1, 0)
        return self.give(self.controller(e), e.card.id)


# Random pools by (type, race, rarity): the playable cards are fixed once loaded.
_POOLS: dict[tuple[int, int, int], tuple[str, ...]] = {}


__all__ = ["KEEP_ON_TRANSFORM", "SILENCE_CLEARS", "Effects"]
