"""The effect DSL: selectors, lazy numbers, effects, triggers, auras and card declarations.

A card is declared next to its id from small reusable pieces (SabberStone tasks, fireplace
actions)::

    card("CS2_029", play=Damage(TARGET, 6, spell=True), requirements={REQ_TARGET_TO_PLAY: 0})
    card("CS2_122", aura=Aura(FRIENDLY_MINIONS - SELF, "CS2_122e"))
    enchantment("CS2_122e", atk=1)

Stats always come from the pinned card data; a declaration holds only behaviour.
Effects run against the engine's primitives (the :class:`~.primitives.Primitives` protocol,
not the concrete State) with a :class:`Ctx` (source entity, chosen target, controlling
player). Selectors return entity ids in order of play; ``+``/``|`` is union, ``-``
difference, ``&`` intersection. The script types the declarations produce (triggers, auras,
:class:`CardScript`, the event types) live in :mod:`.script`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import Union

from .enums import (
    ATK,
    ATTACHED,
    CARDRACE,
    DAMAGE,
    DURABILITY,
    SECRET,
    T_MINION,
    T_SPELL,
    GameTag,
    PlayReq,
)
from .primitives import Ctx, Primitives
from .script import (
    EV_AFTER_ATTACK,
    EV_AFTER_CAST,
    EV_AFTER_PLAY_CARD,
    EV_AFTER_PLAYED,
    EV_ATTACK,
    EV_CAST,
    EV_DAMAGED,
    EV_DIED,
    EV_HEALED,
    EV_PLAYED,
    EV_SUMMONED,
    EV_TURN_END,
    EV_TURN_START,
    ON_ANY,
    ON_ATTACHED,
    ON_BY_SELF,
    ON_DEFENDER_FRIENDLY,
    ON_DEFENDER_FRIENDLY_HERO,
    ON_DEFENDER_FRIENDLY_MINION,
    ON_ENEMY,
    ON_ENEMY_MINION,
    ON_ENEMY_PLAYER,
    ON_FRIENDLY,
    ON_FRIENDLY_HERO,
    ON_FRIENDLY_MINION,
    ON_FRIENDLY_PLAYER,
    ON_OTHER_FRIENDLY_MINION,
    ON_SELF,
    Aura,
    CardScript,
    Effect,
    Selection,
    Trigger,
    register,
)

# ---------------------------------------------------------------------------------------
# Selectors


class Selector:
    """A set of entity ids computed at run time; combine with ``+ | - &`` and ``.filter``."""

    __slots__ = ("fn", "name")

    def __init__(self, fn: Selection, name: str) -> None:
        self.fn = fn
        self.name = name

    def __call__(self, g: Primitives, ctx: Ctx) -> list[int]:
        return self.fn(g, ctx)

    def __add__(self, other: Selector) -> Selector:
        a, b = self.fn, other.fn

        def union(g: Primitives, ctx: Ctx) -> list[int]:
            seen = a(g, ctx)
            return g.by_order(seen + [i for i in b(g, ctx) if i not in seen])

        return Selector(union, f"({self.name} + {other.name})")

    __or__ = __add__

    def __sub__(self, other: Selector) -> Selector:
        a, b = self.fn, other.fn

        def difference(g: Primitives, ctx: Ctx) -> list[int]:
            drop = b(g, ctx)
            return [i for i in a(g, ctx) if i not in drop]

        return Selector(difference, f"({self.name} - {other.name})")

    def __and__(self, other: Selector) -> Selector:
        a, b = self.fn, other.fn

        def intersection(g: Primitives, ctx: Ctx) -> list[int]:
            keep = b(g, ctx)
            return [i for i in a(g, ctx) if i in keep]

        return Selector(intersection, f"({self.name} & {other.name})")

    def filter(self, pred: Callable[[Primitives, int], bool], name: str = "filter") -> Selector:
        a = self.fn
        return Selector(lambda g, ctx: [i for i in a(g, ctx) if pred(g, i)], f"{name}({self.name})")

    def __repr__(self) -> str:
        return self.name


def _friendly(ctx: Ctx) -> int:
    return ctx.player


def _enemy(ctx: Ctx) -> int:
    return 3 - ctx.player


# For a trigger, TARGET is the event's subject and OTHER its other entity (a damage's
# source, an attack's defender); ATTACHED_TO is what an enchantment-borne trigger's
# enchantment sits on.
TARGET = Selector(lambda g, ctx: [ctx.target] if ctx.target else [], "TARGET")
OTHER = Selector(lambda g, ctx: [ctx.other] if ctx.other else [], "OTHER")
ATTACHED_TO = Selector(
    lambda g, ctx: [t] if (t := g.tag(ctx.source, ATTACHED)) else [], "ATTACHED_TO"
)
SELF = Selector(lambda g, ctx: [ctx.source], "SELF")
FRIENDLY_HERO = Selector(lambda g, ctx: [g.hero[ctx.player]], "FRIENDLY_HERO")
ENEMY_HERO = Selector(lambda g, ctx: [g.hero[3 - ctx.player]], "ENEMY_HERO")
FRIENDLY_MINIONS = Selector(lambda g, ctx: g.by_order(g.board[ctx.player]), "FRIENDLY_MINIONS")
ENEMY_MINIONS = Selector(lambda g, ctx: g.by_order(g.board[3 - ctx.player]), "ENEMY_MINIONS")
ALL_MINIONS = Selector(lambda g, ctx: g.by_order(g.board[1] + g.board[2]), "ALL_MINIONS")
FRIENDLY_CHARACTERS = Selector(
    lambda g, ctx: [g.hero[ctx.player], *g.by_order(g.board[ctx.player])], "FRIENDLY_CHARACTERS"
)
ENEMY_CHARACTERS = Selector(
    lambda g, ctx: [g.hero[3 - ctx.player], *g.by_order(g.board[3 - ctx.player])],
    "ENEMY_CHARACTERS",
)
ALL_CHARACTERS = Selector(
    lambda g, ctx: g.by_order([g.hero[1], g.hero[2], *g.board[1], *g.board[2]]), "ALL_CHARACTERS"
)
FRIENDLY_WEAPON = Selector(
    lambda g, ctx: [g.weapon[ctx.player]] if g.weapon[ctx.player] else [], "FRIENDLY_WEAPON"
)
ENEMY_WEAPON = Selector(
    lambda g, ctx: [g.weapon[3 - ctx.player]] if g.weapon[3 - ctx.player] else [], "ENEMY_WEAPON"
)


def _adjacent(g: Primitives, ctx: Ctx) -> list[int]:
    board = g.board[g.controller_of(ctx.source)]
    try:
        i = board.index(ctx.source)
    except ValueError:
        return []
    return [board[j] for j in (i - 1, i + 1) if 0 <= j < len(board)]


ADJACENT = Selector(_adjacent, "ADJACENT")


def RACE(sel: Selector, race: int) -> Selector:
    """Minions of one tribe, e.g. ``RACE(FRIENDLY_MINIONS, Race.MURLOC)``."""
    return sel.filter(lambda g, i: g.tag(i, CARDRACE) == race, f"RACE{int(race)}")


def DAMAGED(sel: Selector) -> Selector:
    return sel.filter(lambda g, i: g.tag(i, DAMAGE) > 0, "DAMAGED")


def ALIVE(sel: Selector) -> Selector:
    """Characters not already mortally wounded (random effects skip those)."""
    return sel.filter(lambda g, i: g.alive(i), "ALIVE")


# ---------------------------------------------------------------------------------------
# Lazy numbers


class Lazy:
    """A number computed when the effect runs."""

    def eval(self, g: Primitives, ctx: Ctx) -> int:
        raise NotImplementedError


Num = Union[int, Lazy]  # noqa: UP007 (runtime alias)


class Count(Lazy):
    """How many entities a selector yields, e.g. ``Count(FRIENDLY_MINIONS - SELF)``."""

    def __init__(self, sel: Selector) -> None:
        self.sel = sel

    def eval(self, g: Primitives, ctx: Ctx) -> int:
        return len(self.sel(g, ctx))


def num(x: Num, g: Primitives, ctx: Ctx) -> int:
    return x if isinstance(x, int) else x.eval(g, ctx)


# ---------------------------------------------------------------------------------------
# Effects


EffectLike = Union[Effect, Sequence[Effect]]  # noqa: UP007


class Seq(Effect):
    def __init__(self, *effects: Effect) -> None:
        self.effects = effects

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for e in self.effects:
            e.run(g, ctx)


def as_effect(x: EffectLike | None) -> Effect | None:
    if x is None or isinstance(x, Effect):
        return x
    return Seq(*x)


class Damage(Effect):
    """Deal damage; ``spell=True`` adds the controller's spell damage (never for hero powers)."""

    def __init__(self, sel: Selector, amount: Num, spell: bool = False) -> None:
        self.sel, self.amount, self.spell = sel, amount, spell

    def run(self, g: Primitives, ctx: Ctx) -> None:
        n = num(self.amount, g, ctx)
        if self.spell:
            n += g.spell_damage(ctx.player)
        targets = self.sel(g, ctx)
        # All targets are hit before any trigger resolves (triggers are queued).
        for t in targets:
            g.damage(ctx.source, t, n)


class DamageRandom(Damage):
    """Deal ``amount`` to one random living entity of ``sel`` (Ragnaros, Demolisher)."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        n = num(self.amount, g, ctx)
        if self.spell:
            n += g.spell_damage(ctx.player)
        choices = [i for i in self.sel(g, ctx) if g.alive(i)]
        if choices:
            g.damage(ctx.source, choices[g.rng.below(len(choices))], n)


class Heal(Effect):
    def __init__(self, sel: Selector, amount: Num) -> None:
        self.sel, self.amount = sel, amount

    def run(self, g: Primitives, ctx: Ctx) -> None:
        n = num(self.amount, g, ctx)
        for t in self.sel(g, ctx):
            g.heal(ctx.source, t, n)


class SplitDamage(Effect):
    """``count`` single hits, each on a random living entity of ``sel`` (Arcane Missiles)."""

    def __init__(self, sel: Selector, count: Num, spell: bool = False) -> None:
        self.sel, self.count, self.spell = sel, count, spell

    def run(self, g: Primitives, ctx: Ctx) -> None:
        n = num(self.count, g, ctx)
        if self.spell:
            n += g.spell_damage(ctx.player)
        for _ in range(n):
            choices = [i for i in self.sel(g, ctx) if g.alive(i)]
            if not choices:
                return
            g.damage(ctx.source, choices[g.rng.below(len(choices))], 1)


class Summon(Effect):
    """Summon ``count`` copies of a card for the controller.

    ``side``: "right" of the source when it is on the board (else the right end),
    "end" (always the right end) or "slot" (the slot a dying source left: deathrattles).
    """

    def __init__(self, card_id: str, count: int = 1, side: str = "right") -> None:
        self.card_id, self.count, self.side = card_id, count, side

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for _ in range(self.count):
            board = g.board[ctx.player]
            if self.side == "slot" and ctx.slot >= 0:
                pos = min(ctx.slot, len(board))
            elif self.side == "right" and ctx.source in board:
                pos = board.index(ctx.source) + 1
            else:
                pos = len(board)
            g.summon(ctx.player, self.card_id, pos, creator=ctx.source)


class Draw(Effect):
    def __init__(self, count: Num = 1, enemy: bool = False) -> None:
        self.count, self.enemy = count, enemy

    def run(self, g: Primitives, ctx: Ctx) -> None:
        p = 3 - ctx.player if self.enemy else ctx.player
        for _ in range(num(self.count, g, ctx)):
            g.draw(p)


class Buff(Effect):
    """Attach an enchantment (a real entity) to each selected entity.

    ``scale`` (a number or Lazy) is stored as TAG_SCRIPT_DATA_NUM_1 and multiplies the
    enchantment's declared deltas (Frostwolf Warlord)."""

    def __init__(self, sel: Selector, enchant_id: str, scale: Num | None = None) -> None:
        self.sel, self.enchant_id, self.scale = sel, enchant_id, scale

    def run(self, g: Primitives, ctx: Ctx) -> None:
        scale = 0 if self.scale is None else num(self.scale, g, ctx)
        for t in self.sel(g, ctx):
            g.add_enchantment(self.enchant_id, t, ctx.source, scale)


class Destroy(Effect):
    """Mark for destruction (ignores health and Divine Shield); the death phase removes it."""

    def __init__(self, sel: Selector) -> None:
        self.sel = sel

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            g.destroy(t)


class Silence(Effect):
    def __init__(self, sel: Selector) -> None:
        self.sel = sel

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            g.silence(t)


class Freeze(Effect):
    def __init__(self, sel: Selector) -> None:
        self.sel = sel

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            g.freeze(t)


class Transform(Effect):
    """Turn each selected minion into ``card_id`` in place (same entity id, Polymorph)."""

    def __init__(self, sel: Selector, card_id: str) -> None:
        self.sel, self.card_id = sel, card_id

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            g.transform(t, self.card_id)


class TransformCopy(Effect):
    """The source becomes a copy of the (single) selected minion (Faceless Manipulator)."""

    def __init__(self, sel: Selector) -> None:
        self.sel = sel

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx)[:1]:
            if g.is_on_board(ctx.source) and g.is_on_board(t):
                g.transform_copy(ctx.source, t)


class GainArmor(Effect):
    def __init__(self, amount: Num) -> None:
        self.amount = amount

    def run(self, g: Primitives, ctx: Ctx) -> None:
        g.gain_armor(ctx.player, num(self.amount, g, ctx))


class GainTempMana(Effect):
    """Mana usable this turn only (The Coin); never above 10 available."""

    def __init__(self, amount: int = 1) -> None:
        self.amount = amount

    def run(self, g: Primitives, ctx: Ctx) -> None:
        g.gain_temp_mana(ctx.player, self.amount)


class Equip(Effect):
    """Equip a new weapon for the controller (Dagger Mastery); the old one is destroyed."""

    def __init__(self, card_id: str) -> None:
        self.card_id = card_id

    def run(self, g: Primitives, ctx: Ctx) -> None:
        g.equip(ctx.player, self.card_id, creator=ctx.source)


# ---------------------------------------------------------------------------------------
# Secrets: what a revealed secret does to the event that triggered it


class CounterIt(Effect):
    """Counter the spell being cast (the trigger's subject): Counterspell."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        g.counter(ctx.target)


class NewTarget(Summon):
    """Summon ``card_id`` for the controller and make it the new target of the attack
    (Noble Sacrifice) or of the spell (Spellbender) that triggered this."""

    def __init__(self, card_id: str) -> None:
        super().__init__(card_id, 1, "end")

    def run(self, g: Primitives, ctx: Ctx) -> None:
        new = g.summon(ctx.player, self.card_id, len(g.board[ctx.player]), creator=ctx.source)
        if not new:
            return
        if g.card_type(ctx.target) == T_SPELL:
            g.retarget(ctx.target, new)
        else:
            g.redirect_attack(new)


class RedirectRandom(Effect):
    """The attack goes to a random other character of ``sel`` instead (Misdirection:
    neither the attacker nor the original defender)."""

    def __init__(self, sel: Selector) -> None:
        self.sel = sel

    def run(self, g: Primitives, ctx: Ctx) -> None:
        choices = [i for i in self.sel(g, ctx) if i not in (ctx.target, ctx.other) and g.alive(i)]
        if choices:
            g.redirect_attack(choices[g.rng.below(len(choices))])


class SummonCopy(Effect):
    """Summon a copy of each selected minion for the controller, its enchantments and
    changed tags included (Mirror Entity)."""

    def __init__(self, sel: Selector) -> None:
        self.sel = sel

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            if not g.is_on_board(t):
                continue
            card_id = g.card_id(t)
            new = g.summon(ctx.player, card_id, len(g.board[ctx.player]), creator=ctx.source)
            if new:
                g.transform_copy(new, t)


class Resurrect(Effect):
    """Summon a fresh copy of each selected (dead) minion for the controller with
    ``health`` left (Redemption)."""

    def __init__(self, sel: Selector, health: int) -> None:
        self.sel, self.health = sel, health

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            new = g.summon(ctx.player, g.card_id(t), len(g.board[ctx.player]), creator=ctx.source)
            if new:
                g.leave_health(new, self.health)


class If(Effect):
    """Run ``then`` when ``cond(g, ctx)`` holds, else ``otherwise``."""

    def __init__(
        self,
        cond: Callable[[Primitives, Ctx], bool],
        then: EffectLike,
        otherwise: EffectLike | None = None,
    ) -> None:
        self.cond = cond
        self.then = as_effect(then)
        self.otherwise = as_effect(otherwise)

    def run(self, g: Primitives, ctx: Ctx) -> None:
        branch = self.then if self.cond(g, ctx) else self.otherwise
        if branch is not None:
            branch.run(g, ctx)


class Call(Effect):
    """Escape hatch: run ``fn(g, ctx)`` (prefer a reusable effect when one fits)."""

    def __init__(self, fn: Callable[[Primitives, Ctx], None]) -> None:
        self.fn = fn

    def run(self, g: Primitives, ctx: Ctx) -> None:
        self.fn(g, ctx)


# ---------------------------------------------------------------------------------------
# Mana crystals, set stats, random picks, conditions (druid, hunter, demon hunter)


class GainManaCrystal(Effect):
    """Gain an empty Mana Crystal (Wild Growth); at 10 crystals run ``full`` instead
    (Wild Growth gives Excess Mana)."""

    def __init__(self, amount: int = 1, full: EffectLike | None = None) -> None:
        self.amount, self.full = amount, as_effect(full)

    def run(self, g: Primitives, ctx: Ctx) -> None:
        if not g.gain_mana_crystal(ctx.player, self.amount) and self.full is not None:
            self.full.run(g, ctx)


class GiveCard(Effect):
    """Put a new ``card_id`` into the controller's hand (nothing when the hand is full)."""

    def __init__(self, card_id: str) -> None:
        self.card_id = card_id

    def run(self, g: Primitives, ctx: Ctx) -> None:
        g.give(ctx.player, self.card_id)


class RemoveSelf(Effect):
    """An enchantment-borne trigger removes its own enchantment, undoing its deltas."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        if g.tag(ctx.source, ATTACHED):
            g.remove_enchantment(ctx.source)


class SetStat(Effect):
    """"Change a minion's Attack/Health to N" through a scaled enchantment (delta 1)."""

    def __init__(self, sel: Selector, enchant_id: str, tag: int, value: int) -> None:
        self.sel, self.enchant_id, self.tag, self.value = sel, enchant_id, tag, value

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            g.set_stat(self.enchant_id, t, ctx.source, self.tag, self.value)


def RANDOM(sel: Selector, count: int = 1) -> Selector:
    """``count`` distinct random living entities of ``sel`` (Multi-Shot), in order of play."""

    def pick(g: Primitives, ctx: Ctx) -> list[int]:
        pool = [i for i in sel(g, ctx) if g.alive(i)]
        out: list[int] = []
        while pool and len(out) < count:
            out.append(pool.pop(g.rng.below(len(pool))))
        return g.by_order(out)

    return Selector(pick, f"RANDOM{count}({sel.name})")


class SummonRandom(Effect):
    """Summon one card picked at random from a fixed list (Animal Companion)."""

    def __init__(self, card_ids: Sequence[str], side: str = "right") -> None:
        self.card_ids, self.side = tuple(card_ids), side

    def run(self, g: Primitives, ctx: Ctx) -> None:
        Summon(self.card_ids[g.rng.below(len(self.card_ids))], side=self.side).run(g, ctx)


def controls(sel: Selector) -> Callable[[Primitives, Ctx], bool]:
    """A condition for :class:`If`: ``sel`` is not empty ("If you control a Beast")."""
    return lambda g, ctx: bool(sel(g, ctx))


def is_race(race: int) -> Callable[[Primitives, int, int], bool]:
    """A trigger condition: the event's subject is of tribe ``race``."""
    return lambda g, listener, subject: g.tag(subject, CARDRACE) == race


# ---------------------------------------------------------------------------------------
# Aura shapes (Aura and Trigger themselves are script types, re-exported here)


def Enrage(enchant_id: str) -> Aura:
    """+X while damaged (Amani Berserker): an aura on the source itself, when damaged."""
    return Aura(DAMAGED(SELF), enchant_id)


def AdjacentAura(enchant_id: str) -> Aura:
    return Aura(ADJACENT, enchant_id)


# ---------------------------------------------------------------------------------------
# Card scripts


def card(
    card_id: str,
    *,
    play: EffectLike | None = None,
    battlecry: EffectLike | None = None,
    spell: EffectLike | None = None,
    deathrattle: EffectLike | None = None,
    trigger: Trigger | Iterable[Trigger] | None = None,
    aura: Aura | Iterable[Aura] | None = None,
    enrage: str | None = None,
    requirements: dict[PlayReq, int] | None = None,
    secret: Trigger | None = None,
    combo: EffectLike | None = None,
    combo_requirements: dict[PlayReq, int] | None = None,
    entourage: tuple[str, ...] = (),
    choose: tuple[str, ...] = (),
) -> CardScript:
    """Declare the behaviour of ``card_id`` (``battlecry``/``spell`` are aliases of ``play``).

    ``choose``: Choose One, the option cards (declared with their own text and requirements;
    a minion's option is its battlecry); the play names the option by index.

    ``combo``: what the card does instead when another card was played before it this
    turn, with ``combo_requirements`` (default: ``requirements``) for its target.

    ``secret``: the trigger of a Secret (the card data's SECRET tag sends the played card
    to the SECRET zone); it is heard only on the opponent's turn and reveals the secret."""
    given = [x for x in (play, battlecry, spell) if x is not None]
    if len(given) > 1:
        raise ValueError(f"{card_id}: give only one of play/battlecry/spell")
    triggers: tuple[Trigger, ...]
    if trigger is None:
        triggers = ()
    elif isinstance(trigger, Trigger):
        triggers = (trigger,)
    else:
        triggers = tuple(trigger)
    auras: tuple[Aura, ...]
    if aura is None:
        auras = ()
    elif isinstance(aura, Aura):
        auras = (aura,)
    else:
        auras = tuple(aura)
    if enrage is not None:
        auras += (Enrage(enrage),)
    if secret is not None:
        triggers += (dataclasses.replace(secret, secret=True),)
    reqs = {int(k): v for k, v in (requirements or {}).items()}
    needs = PlayReq.REQ_TARGET_TO_PLAY in reqs
    combo_reqs = {int(k): v for k, v in (combo_requirements or {}).items()}
    creqs = combo_reqs or reqs
    combo_needs = PlayReq.REQ_TARGET_TO_PLAY in creqs
    script = CardScript(
        play=as_effect(given[0]) if given else None,
        deathrattle=as_effect(deathrattle),
        triggers=triggers,
        auras=auras,
        requirements=reqs,
        entourage=entourage,
        needs_target=needs,
        takes_target=needs
        or PlayReq.REQ_TARGET_IF_AVAILABLE in reqs
        or PlayReq.REQ_TARGET_IF_AVAILABLE_AND_HERO_ATTACKED_THIS_TURN in reqs,
        combo=as_effect(combo),
        combo_requirements=combo_reqs,
        combo_needs_target=combo_needs,
        combo_takes_target=combo_needs or PlayReq.REQ_TARGET_IF_AVAILABLE in creqs,
        choose=choose,
    )
    return register(card_id, script)


def vanilla(*card_ids: str) -> None:
    """Declare cards whose whole text is keywords the engine reads from the card data
    (Taunt, Charge, Divine Shield, Spell Damage, ...) or nothing at all: a plain weapon,
    a vanilla minion. Declared, they become playable (:attr:`.carddb.Card.playable`)."""
    for card_id in card_ids:
        register(card_id, CardScript())


def enchantment(card_id: str, *, scaled: bool = False, **deltas: int) -> CardScript:
    """Declare an enchantment's effect, e.g. ``enchantment("CS2_092e", atk=4, health=4)``.

    Keyword names are GameTag names in lower case (atk, health, cost, taunt, ...)."""
    buff = tuple((int(GameTag[name.upper()]), value) for name, value in deltas.items())
    return register(card_id, CardScript(buff=buff, scaled=scaled))


# ---------------------------------------------------------------------------------------
# Discard, random picks, keywords, full heals, entourages (Shaman, Warlock, Warrior Basic)


class DiscardRandom(Effect):
    """Discard ``count`` random cards from the controller's hand (Soulfire, Felstalker)."""

    def __init__(self, count: int = 1) -> None:
        self.count = count

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for _ in range(self.count):
            hand = [i for i in g.hand[ctx.player] if i != ctx.source]
            if not hand:
                return
            g.discard(ctx.player, hand[g.rng.below(len(hand))])


class SetTag(Effect):
    """Give each selected entity a keyword tag (Windfury); Silence clears it."""

    def __init__(self, sel: Selector, tag: int, value: int = 1) -> None:
        self.sel, self.tag, self.value = sel, tag, value

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            g.set_tag(t, self.tag, self.value)


class FullHeal(Effect):
    """Restore each selected character to full Health (Ancestral Healing)."""

    def __init__(self, sel: Selector) -> None:
        self.sel = sel

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            g.heal(ctx.source, t, g.tag(t, DAMAGE))


class SummonNew(Effect):
    """Summon a random card of ``card_ids`` that the controller does not control yet
    (Totemic Call's totems), at the right end; nothing when all are in play."""

    def __init__(self, card_ids: Sequence[str]) -> None:
        self.card_ids = tuple(card_ids)

    def run(self, g: Primitives, ctx: Ctx) -> None:
        board = g.board[ctx.player]
        have = {g.card_id(i) for i in board}
        choices = [c for c in self.card_ids if c not in have]
        if choices:
            g.summon(ctx.player, choices[g.rng.below(len(choices))], len(board), creator=ctx.source)


# --- neutralA ---
# Selectors, auras and effects of the first half of the neutral Classic minions.

FRIENDLY_HAND = Selector(lambda g, ctx: list(g.hand[ctx.player]), "FRIENDLY_HAND")


def WHILE(cond: Callable[[Primitives, Ctx], bool], sel: Selector) -> Selector:
    """``sel`` while ``cond`` holds, else nothing (Spiteful Smith: the weapon while the
    Smith is damaged)."""
    a = sel.fn
    return Selector(lambda g, ctx: a(g, ctx) if cond(g, ctx) else [], f"WHILE({sel.name})")


def is_damaged(g: Primitives, ctx: Ctx) -> bool:
    """A condition: the source is damaged (an enrage on something else than itself)."""
    return g.tag(ctx.source, DAMAGE) > 0


def SelfBonus(count: Lazy, **deltas: int) -> Aura:
    """A minion's own stat or keyword computed from the board, with no enchantment (as
    in the card data): ``deltas`` (GameTag names in lower case) times ``count``, kept up
    to date like any aura (Old Murk-Eye: +1 Attack per other Murloc; Southsea Deckhand:
    Charge while a weapon is equipped)."""
    buff = tuple((int(GameTag[name.upper()]), value) for name, value in deltas.items())
    return Aura(lambda g, ctx: [ctx.source] * count.eval(g, ctx), "", buff)


class ForOpponent(Effect):
    """Run effects for the opponent of the controller: their hand, their mana (King
    Mukla's Bananas, Arcane Golem's Mana Crystal)."""

    def __init__(self, *effects: Effect) -> None:
        self.effects = effects

    def run(self, g: Primitives, ctx: Ctx) -> None:
        other = Ctx(ctx.source, ctx.target, 3 - ctx.player, ctx.slot, ctx.other)
        for e in self.effects:
            e.run(g, other)


class SwapAttackHealth(Effect):
    """Swap each selected minion's Attack and Health (Crazed Alchemist)."""

    def __init__(self, sel: Selector, enchant_id: str) -> None:
        self.sel, self.enchant_id = sel, enchant_id

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            g.swap_attack_health(self.enchant_id, t, ctx.source)


class TransformRandom(Effect):
    """Transform each selected minion into one of ``card_ids`` picked at random
    (Tinkmaster Overspark: a Devilsaur or a Squirrel)."""

    def __init__(self, sel: Selector, card_ids: Sequence[str]) -> None:
        self.sel, self.card_ids = sel, tuple(card_ids)

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            g.transform(t, self.card_ids[g.rng.below(len(self.card_ids))])


class SwapWithHand(Effect):
    """The source goes back to its owner's hand and a random minion card of that hand
    takes its slot (Alarm-o-Bot); nothing without a minion in hand."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        if not g.is_on_board(ctx.source):
            return
        p = g.controller_of(ctx.source)
        minions = [i for i in g.hand[p] if g.card_type(i) == T_MINION]
        if minions:
            g.swap_with_hand(ctx.source, minions[g.rng.below(len(minions))])


def is_secret(g: Primitives, listener: int, subject: int) -> bool:
    """A trigger condition: the card played is a Secret (Secretkeeper)."""
    return bool(g.tag(subject, SECRET))


def swap_enchantment(card_id: str) -> CardScript:
    """Declare a stat-swap enchantment (Crazed Alchemist's): it has no deltas of its own;
    :meth:`~.primitives.Primitives.swap_attack_health` records what it changed."""
    return register(card_id, CardScript(swaps_stats=True))


__all__ = [
    "ADJACENT",
    "ALIVE",
    "ALL_CHARACTERS",
    "ALL_MINIONS",
    "ATTACHED_TO",
    "DAMAGED",
    "ENEMY_CHARACTERS",
    "ENEMY_HERO",
    "ENEMY_MINIONS",
    "ENEMY_WEAPON",
    "EV_AFTER_ATTACK",
    "EV_AFTER_CAST",
    "EV_AFTER_PLAYED",
    "EV_AFTER_PLAY_CARD",
    "EV_ATTACK",
    "EV_CAST",
    "EV_DAMAGED",
    "EV_DIED",
    "EV_HEALED",
    "EV_PLAYED",
    "EV_SUMMONED",
    "EV_TURN_END",
    "EV_TURN_START",
    "FRIENDLY_CHARACTERS",
    "FRIENDLY_HAND",
    "FRIENDLY_HERO",
    "FRIENDLY_MINIONS",
    "FRIENDLY_WEAPON",
    "ON_ANY",
    "ON_ATTACHED",
    "ON_BY_SELF",
    "ON_DEFENDER_FRIENDLY",
    "ON_DEFENDER_FRIENDLY_HERO",
    "ON_DEFENDER_FRIENDLY_MINION",
    "ON_ENEMY",
    "ON_ENEMY_MINION",
    "ON_ENEMY_PLAYER",
    "ON_FRIENDLY",
    "ON_FRIENDLY_HERO",
    "ON_FRIENDLY_MINION",
    "ON_FRIENDLY_PLAYER",
    "ON_OTHER_FRIENDLY_MINION",
    "ON_SELF",
    "OTHER",
    "RACE",
    "RANDOM",
    "SELF",
    "TARGET",
    "WHILE",
    "AdjacentAura",
    "Aura",
    "Buff",
    "Call",
    "CardScript",
    "Count",
    "CounterIt",
    "Ctx",
    "Damage",
    "DamageRandom",
    "Destroy",
    "DiscardRandom",
    "Draw",
    "Effect",
    "Enrage",
    "Equip",
    "ForOpponent",
    "Freeze",
    "FullHeal",
    "GainArmor",
    "GainManaCrystal",
    "GainTempMana",
    "GiveCard",
    "Heal",
    "If",
    "Lazy",
    "NewTarget",
    "PlayReq",
    "RedirectRandom",
    "RemoveSelf",
    "Resurrect",
    "Selector",
    "SelfBonus",
    "Seq",
    "SetStat",
    "SetTag",
    "Silence",
    "SplitDamage",
    "Summon",
    "SummonCopy",
    "SummonNew",
    "SummonRandom",
    "SwapAttackHealth",
    "SwapWithHand",
    "Transform",
    "TransformCopy",
    "TransformRandom",
    "Trigger",
    "card",
    "controls",
    "enchantment",
    "is_damaged",
    "is_race",
    "is_secret",
    "swap_enchantment",
    "vanilla",
]


# --- neutralB ---
# Summons for the opponent and on both sides, random cards from lists and from the pool of
# playable cards, weapons' Attack and Durability, whole-hand discards, deaths this turn.


def HAS(sel: Selector, tag: int) -> Selector:
    """Entities of ``sel`` whose ``tag`` is set (``HAS(ALL_MINIONS, DIVINE_SHIELD)``)."""
    return sel.filter(lambda g, i: bool(g.tag(i, tag)), f"HAS{tag}")


def NOT_CARD(sel: Selector, card_id: str) -> Selector:
    """Entities of ``sel`` that are not a ``card_id`` ("except Ysera")."""
    return sel.filter(lambda g, i: g.card_id(i) != card_id, f"NOT_{card_id}")


def MAX_ATK(sel: Selector, atk: int) -> Selector:
    """Entities of ``sel`` with at most ``atk`` Attack (Stampeding Kodo)."""
    return sel.filter(lambda g, i: g.tag(i, ATK) <= atk, f"MAX_ATK{atk}")


class TagSum(Lazy):
    """The sum of ``tag`` over ``sel`` (the Attack of your weapon: 0 without one)."""

    def __init__(self, sel: Selector, tag: int) -> None:
        self.sel, self.tag = sel, tag

    def eval(self, g: Primitives, ctx: Ctx) -> int:
        return sum(g.tag(i, self.tag) for i in self.sel(g, ctx))


class Durability(Lazy):
    """The Durability left on the weapons of ``sel`` (Harrison Jones)."""

    def __init__(self, sel: Selector) -> None:
        self.sel = sel

    def eval(self, g: Primitives, ctx: Ctx) -> int:
        return sum(max(0, g.tag(i, DURABILITY) - g.tag(i, DAMAGE)) for i in self.sel(g, ctx))


def chance(one_in: int) -> Callable[[Primitives, Ctx], bool]:
    """A condition for :class:`If` that holds once in ``one_in`` (seeded: Nat Pagle's 50%)."""
    return lambda g, ctx: g.rng.below(one_in) == 0


class BuffScaled(Buff):
    """A scaled :class:`Buff` that does nothing when the scale is 0 (Bloodsail Raider with
    no weapon, Blood Knight with no Divine Shield in play)."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        scale = 0 if self.scale is None else num(self.scale, g, ctx)
        if scale > 0:
            for t in self.sel(g, ctx):
                g.add_enchantment(self.enchant_id, t, ctx.source, scale)


class SummonEnemy(Summon):
    """Summon ``count`` copies of a card for the opponent, at the right end of their board
    (Leeroy Jenkins' Whelps, The Beast's Finkle Einhorn)."""

    def __init__(self, card_id: str, count: int = 1) -> None:
        super().__init__(card_id, count, "end")

    def run(self, g: Primitives, ctx: Ctx) -> None:
        q = 3 - ctx.player
        for _ in range(self.count):
            g.summon(q, self.card_id, len(g.board[q]), creator=ctx.source)


class SummonBothSides(Effect):
    """Summon ``card_id`` right, then left of the source, in turn, until the board is full
    (Onyxia; SabberStone's order)."""

    def __init__(self, card_id: str) -> None:
        self.card_id = card_id

    def run(self, g: Primitives, ctx: Ctx) -> None:
        right = True
        while True:
            board = g.board[ctx.player]
            if ctx.source not in board:
                return
            i = board.index(ctx.source)
            if not g.summon(ctx.player, self.card_id, i + 1 if right else i, creator=ctx.source):
                return
            right = not right


class SummonCount(Summon):
    """Summon ``card_id`` a random number of times, one of ``counts`` (I Am Murloc)."""

    def __init__(self, card_id: str, counts: Sequence[int]) -> None:
        super().__init__(card_id, 1, "end")
        self.counts = tuple(counts)

    def run(self, g: Primitives, ctx: Ctx) -> None:
        n = self.counts[g.rng.below(len(self.counts))]
        Summon(self.card_id, n, self.side).run(g, ctx)


class GiveRandom(Effect):
    """Add a random card of ``card_ids`` to the hand of the controller, or with
    ``both=True`` to each player's hand, each picked on its own (Elite Tauren Chieftain)."""

    def __init__(self, card_ids: Sequence[str], both: bool = False) -> None:
        self.card_ids, self.both = tuple(card_ids), both

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for p in (ctx.player, 3 - ctx.player) if self.both else (ctx.player,):
            g.give(p, self.card_ids[g.rng.below(len(self.card_ids))])


class _FromPool(Effect):
    """A random collectible card the engine plays, of a type, race or rarity."""

    def __init__(self, card_type: int = T_MINION, race: int = 0, rarity: int = 0) -> None:
        self.card_type, self.race, self.rarity = card_type, race, rarity

    def pick(self, g: Primitives) -> str:
        pool = g.card_pool(self.card_type, self.race, self.rarity)
        return pool[g.rng.below(len(pool))] if pool else ""


class SummonFromPool(_FromPool):
    """Summon a random minion of the pool, to the right of the source (Barrens Stablehand)."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        card_id = self.pick(g)
        if card_id:
            Summon(card_id).run(g, ctx)


class GiveFromPool(_FromPool):
    """Add a random card of the pool to the controller's hand (Brightwing)."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        card_id = self.pick(g)
        if card_id:
            g.give(ctx.player, card_id)


class DrawRace(Effect):
    """Draw a random card of tribe ``race`` from the controller's deck (Captain's Parrot);
    nothing when the deck holds none."""

    def __init__(self, race: int) -> None:
        self.race = race

    def run(self, g: Primitives, ctx: Ctx) -> None:
        deck = g.deck[ctx.player]
        # Deck order is hidden: pick among the matching cards in id order, not deck order.
        found = sorted(i for i in deck if g.tag(i, CARDRACE) == self.race)
        if found:
            g.draw_card(ctx.player, found[g.rng.below(len(found))])


class DamageWeapon(Effect):
    """Remove ``amount`` Durability from each selected weapon (Bloodsail Corsair)."""

    def __init__(self, sel: Selector, amount: int) -> None:
        self.sel, self.amount = sel, amount

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for w in self.sel(g, ctx):
            g.damage_weapon(w, self.amount)


class DiscardHand(Effect):
    """Discard the controller's whole hand, left to right (Deathwing)."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for card in list(g.hand[ctx.player]):
            g.discard(ctx.player, card)


class SetRemainingHealth(Effect):
    """Set each selected character's remaining Health to ``health`` (Alexstrasza): the
    damage changes, the maximum and the Armor stay, and nothing is dealt or healed."""

    def __init__(self, sel: Selector, health: int) -> None:
        self.sel, self.health = sel, health

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            g.leave_health(t, self.health)


class SummonDiedThisTurn(Effect):
    """Summon a fresh copy of each friendly minion that died this turn, in order of death,
    at the right end, until the board is full (High Inquisitor Whitemane)."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for dead in g.died_this_turn(ctx.player):
            board = g.board[ctx.player]
            if not g.summon(ctx.player, g.card_id(dead), len(board), creator=ctx.source):
                return


def triggered_enchantment(
    card_id: str, trigger: Trigger, *, scaled: bool = False, **deltas: int
) -> CardScript:
    """An enchantment with deltas and a trigger of its own (Nightmare: +5/+5, destroyed at
    the start of the caster's next turn)."""
    buff = tuple((int(GameTag[name.upper()]), value) for name, value in deltas.items())
    return register(card_id, CardScript(buff=buff, scaled=scaled, triggers=(trigger,)))


def alive_not_self(g: Primitives, listener: int, subject: int) -> bool:
    """A trigger condition: the listener is not mortally wounded and the event's subject is
    not itself (Xavius: not for its own play, nor once the card played killed it)."""
    return subject != listener and g.alive(listener)


__all__ += [
    "HAS",
    "MAX_ATK",
    "NOT_CARD",
    "BuffScaled",
    "DamageWeapon",
    "DiscardHand",
    "DrawRace",
    "Durability",
    "GiveFromPool",
    "GiveRandom",
    "SetRemainingHealth",
    "SummonBothSides",
    "SummonCount",
    "SummonDiedThisTurn",
    "SummonEnemy",
    "SummonFromPool",
    "TagSum",
    "alive_not_self",
    "chance",
    "triggered_enchantment",
]


# --- control ---
# Take control, copies of cards into a hand or onto the board, doubled or inverted
# healing (Prophet Velen, Auchenai Soulpriest), and a few numbers read from a target.
# (Imported here, not at the top, to keep this section separate for merges.)
from .enums import HEALTH, T_MINION  # noqa: E402
from .script import SCRIPTS  # noqa: E402


class TakeControl(Effect):
    """The controller takes each selected enemy minion; with a full board it is destroyed
    instead (SabberStone's ControlTask)."""

    def __init__(self, sel: Selector) -> None:
        self.sel = sel

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            mine = g.controller_of(t) == ctx.player
            if not mine and g.is_on_board(t) and not g.take_control(t, ctx.player):
                g.destroy(t)


class GiveBack(Effect):
    """When an enchantment goes, the minion it sat on goes back to the other player (Shadow
    Madness; destroyed if that board is full): an enchantment's ``deathrattle``."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        t = g.tag(ctx.source, ATTACHED)
        if not t:
            return
        held = g.is_on_board(t) and g.controller_of(t) == ctx.player
        if held and not g.take_control(t, 3 - ctx.player):
            g.destroy(t)


class CopyFromHand(Effect):
    """Put a copy of a random card of the opponent's hand into the controller's hand (Mind
    Vision); the copy is hidden from the opponent like any card in a hand."""

    reads_hidden = True  # what it copies depends on hidden cards

    def run(self, g: Primitives, ctx: Ctx) -> None:
        hand = [i for i in g.hand[3 - ctx.player] if i != ctx.source]
        if hand:
            g.give(ctx.player, g.card_id(hand[g.rng.below(len(hand))]))


class CopyFromDeck(Effect):
    """Copy ``count`` distinct random cards of the opponent's deck into the controller's
    hand (Thoughtsteal, Psychic Conjurer); the deck itself is untouched."""

    reads_hidden = True  # what it copies depends on hidden cards

    def __init__(self, count: int = 1) -> None:
        self.count = count

    def run(self, g: Primitives, ctx: Ctx) -> None:
        pool = list(g.deck[3 - ctx.player])
        for _ in range(self.count):
            if not pool:
                return
            g.give(ctx.player, g.card_id(pool.pop(g.rng.below(len(pool)))))


class SummonFromEnemyDeck(Effect):
    """Summon a fresh copy of a random minion of the opponent's deck for the controller;
    ``fallback`` when the deck has none (Mindgames' Shadow of Nothing)."""

    reads_hidden = True  # what it copies depends on hidden cards

    def __init__(self, fallback: str) -> None:
        self.fallback = fallback

    def run(self, g: Primitives, ctx: Ctx) -> None:
        minions = [i for i in g.deck[3 - ctx.player] if g.card_type(i) == T_MINION]
        card_id = g.card_id(minions[g.rng.below(len(minions))]) if minions else self.fallback
        g.summon(ctx.player, card_id, len(g.board[ctx.player]), creator=ctx.source)


class CopyToOtherPlayer(Effect):
    """A copy of the subject (a spell being cast) goes to the hand of the player who did
    not cast it (Lorewalker Cho)."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        g.give_copy(3 - g.controller_of(ctx.target), ctx.target)


class DrawThenDamage(Draw):
    """Draw a card, then deal damage equal to its Cost (Holy Wrath); no card, no damage."""

    def __init__(self, sel: Selector, spell: bool = True) -> None:
        super().__init__(1)
        self.sel, self.spell = sel, spell

    def run(self, g: Primitives, ctx: Ctx) -> None:
        drawn = g.draw(ctx.player)
        if drawn:
            Damage(self.sel, g.cost(drawn), self.spell).run(g, ctx)


class TagOf(Lazy):
    """A tag of the first selected entity (0 if none): ``TagOf(TARGET, ATK)``."""

    def __init__(self, sel: Selector, tag: int) -> None:
        self.sel, self.tag = sel, tag

    def eval(self, g: Primitives, ctx: Ctx) -> int:
        ids = self.sel(g, ctx)
        return g.tag(ids[0], self.tag) if ids else 0


class HealthOf(Lazy):
    """The current Health of the first selected character (0 if none)."""

    def __init__(self, sel: Selector) -> None:
        self.sel = sel

    def eval(self, g: Primitives, ctx: Ctx) -> int:
        ids = self.sel(g, ctx)
        return max(0, g.tag(ids[0], HEALTH) - g.tag(ids[0], DAMAGE)) if ids else 0


class HandGap(Lazy):
    """How many more cards the opponent holds than the controller (Divine Favor)."""

    def eval(self, g: Primitives, ctx: Ctx) -> int:
        return max(0, len(g.hand[3 - ctx.player]) - len(g.hand[ctx.player]))


class SetStatTo(Effect):
    """"Change a minion's Attack/Health to be equal to" a lazy number (Inner Fire)."""

    def __init__(self, sel: Selector, enchant_id: str, tag: int, value: Lazy) -> None:
        self.sel, self.enchant_id, self.tag, self.value = sel, enchant_id, tag, value

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            g.set_stat(self.enchant_id, t, ctx.source, self.tag, self.value.eval(g, ctx))


class BaseAtMost(Lazy):
    """``min(n, the first selected entity's tag without auras)``: how much of a "-n" the
    minion has to lose, so that no tag goes below 0 (Scarlet Subjugator's -2 Attack)."""

    def __init__(self, sel: Selector, tag: int, n: int) -> None:
        self.sel, self.tag, self.n = sel, tag, n

    def eval(self, g: Primitives, ctx: Ctx) -> int:
        ids = self.sel(g, ctx)
        return max(0, min(self.n, g.base_tag(ids[0], self.tag))) if ids else 0


class EventAmount(Lazy):
    """The amount of the damage event that set off the trigger (Eye for an Eye)."""

    def eval(self, g: Primitives, ctx: Ctx) -> int:
        return ctx.amount


def with_player_tags(card_id: str, **tags: int) -> CardScript:
    """While ``card_id`` is in play and not silenced its controller has ``tags`` (GameTag
    names in lower case): ``with_player_tags("EX1_591", healing_does_damage=1)``. Call it
    after the card's :func:`card` declaration."""
    given = tuple((int(GameTag[name.upper()]), v) for name, v in tags.items())
    script = dataclasses.replace(SCRIPTS[card_id], player_tags=given)
    SCRIPTS[card_id] = script
    return script


def attack_at_least(n: int) -> Callable[[Primitives, int], bool]:
    """A filter: Attack >= ``n`` (Shadow Word: Ruin)."""
    return lambda g, i: g.tag(i, ATK) >= n


def is_minion(g: Primitives, listener: int, subject: int) -> bool:
    """A trigger condition: the subject is a minion (Northshire Cleric)."""
    return g.card_type(subject) == T_MINION


__all__ += [
    "BaseAtMost",
    "CopyFromDeck",
    "CopyFromHand",
    "CopyToOtherPlayer",
    "DrawThenDamage",
    "EventAmount",
    "GiveBack",
    "HandGap",
    "HealthOf",
    "SetStatTo",
    "SummonFromEnemyDeck",
    "TagOf",
    "TakeControl",
    "attack_at_least",
    "is_minion",
    "with_player_tags",
]


# --- warlock ---
# Hero and hero power replacement, "N for each", random cards of a tribe, Consume.

# The controller's player entity (an enchantment "this turn" on the player: Commanding Shout).
FRIENDLY_PLAYER = Selector(lambda g, ctx: [1 + ctx.player], "FRIENDLY_PLAYER")


class ReplaceHero(Effect):
    """Replace the controller's hero with ``hero_card_id`` and its hero power, equip
    ``weapon_card_id`` (Lord Jaraxxus: the source minion leaves play)."""

    def __init__(self, hero_card_id: str, weapon_card_id: str = "") -> None:
        self.hero_card_id, self.weapon_card_id = hero_card_id, weapon_card_id

    def run(self, g: Primitives, ctx: Ctx) -> None:
        g.replace_hero(ctx.player, self.hero_card_id, ctx.source, self.weapon_card_id)


class ReplaceHeroPower(Effect):
    """The controller's hero power becomes a new, unused ``card_id`` (Shadowform)."""

    def __init__(self, card_id: str) -> None:
        self.card_id = card_id

    def run(self, g: Primitives, ctx: Ctx) -> None:
        g.replace_hero_power(ctx.player, self.card_id, g.hero[ctx.player])


def hero_power_is(*card_ids: str) -> Callable[[Primitives, Ctx], bool]:
    """A condition for :class:`If`: the controller's hero power is one of ``card_ids``."""
    return lambda g, ctx: g.card_id(g.power[ctx.player]) in card_ids


class DamageEach(Damage):
    """``amount`` damage for each of ``times`` (Shield Slam: 1 for each Armor), plus the
    caster's spell damage once when ``spell``."""

    def __init__(self, sel: Selector, amount: int, times: Num, spell: bool = False) -> None:
        super().__init__(sel, amount, spell)
        self.times = times

    def run(self, g: Primitives, ctx: Ctx) -> None:
        n = num(self.amount, g, ctx) * num(self.times, g, ctx)
        if self.spell:
            n += g.spell_damage(ctx.player)
        for t in self.sel(g, ctx):
            g.damage(ctx.source, t, n)


class DamageRange(Damage):
    """Each selected entity takes its own random amount from ``low`` to ``amount``
    (Lightning Storm's $2-$3), plus spell damage."""

    def __init__(self, sel: Selector, low: int, amount: int, spell: bool = False) -> None:
        super().__init__(sel, amount, spell)
        self.low = low

    def run(self, g: Primitives, ctx: Ctx) -> None:
        high = num(self.amount, g, ctx)
        bonus = g.spell_damage(ctx.player) if self.spell else 0
        for t in self.sel(g, ctx):
            g.damage(ctx.source, t, self.low + g.rng.below(high - self.low + 1) + bonus)


class DrawEach(Draw):
    """Draw ``count`` cards for each entity ``per`` selects (Battle Rage)."""

    def __init__(self, per: Selector, count: int = 1) -> None:
        super().__init__(count)
        self.per = per

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for _ in range(num(self.count, g, ctx) * len(self.per(g, ctx))):
            g.draw(ctx.player)


class DrawOfRace(Effect):
    """Draw ``count`` random cards of tribe ``race`` from the deck, one at a time; for
    each one missing, ``otherwise`` runs instead (Sense Demons' Worthless Imp)."""

    def __init__(self, race: int, count: int, otherwise: EffectLike | None = None) -> None:
        self.race, self.count, self.otherwise = race, count, as_effect(otherwise)

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for _ in range(self.count):
            found = [i for i in g.deck[ctx.player] if g.tag(i, CARDRACE) == self.race]
            if found:
                g.draw_card(ctx.player, found[g.rng.below(len(found))])
            elif self.otherwise is not None:
                self.otherwise.run(g, ctx)


class GiveRandomOf(Effect):
    """Add a random collectible card of a type and tribe to the controller's hand
    (Call of the Void: a Demon)."""

    def __init__(self, card_type: int, race: int = 0) -> None:
        self.card_type, self.race = card_type, race

    def run(self, g: Primitives, ctx: Ctx) -> None:
        pool = g.card_pool(self.card_type, self.race)
        if pool:
            g.give(ctx.player, pool[g.rng.below(len(pool))])


class SummonRandomOf(Effect):
    """Summon a random collectible minion of a tribe at the right end (Bane of Doom)."""

    def __init__(self, race: int) -> None:
        self.race = race

    def run(self, g: Primitives, ctx: Ctx) -> None:
        pool = g.card_pool(T_MINION, self.race)
        if pool:
            card_id = pool[g.rng.below(len(pool))]
            g.summon(ctx.player, card_id, len(g.board[ctx.player]), creator=ctx.source)


class LoseManaCrystal(Effect):
    """Destroy one of the controller's Mana Crystals (Felguard)."""

    def __init__(self, amount: int = 1) -> None:
        self.amount = amount

    def run(self, g: Primitives, ctx: Ctx) -> None:
        g.lose_mana_crystal(ctx.player, self.amount)


class Consume(Effect):
    """Destroy the selected minions and give the source their Attack and Health through
    the ``stats_from_data`` enchantment ``enchant_id`` (Void Terror)."""

    def __init__(self, sel: Selector, enchant_id: str) -> None:
        self.sel, self.enchant_id = sel, enchant_id

    def run(self, g: Primitives, ctx: Ctx) -> None:
        eaten = self.sel(g, ctx)
        atk = sum(g.tag(i, ATK) for i in eaten)
        health = sum(g.tag(i, HEALTH) - g.tag(i, DAMAGE) for i in eaten)
        for i in eaten:
            g.destroy(i)
        if eaten and g.is_on_board(ctx.source):
            g.add_stats_enchantment(self.enchant_id, ctx.source, ctx.source, atk, health)


def stats_enchantment(card_id: str) -> CardScript:
    """An enchantment whose +Attack/+Health the game decides (:class:`Consume`)."""
    return register(card_id, CardScript(stats_from_data=True))


def enchantment_with_deathrattle(card_id: str, effect: Effect, **deltas: int) -> CardScript:
    """An enchantment that gives its bearer a deathrattle (Ancestral Spirit); the effect runs
    with the dead minion as its source, after the minion's own deathrattle."""
    buff = tuple((int(GameTag[name.upper()]), value) for name, value in deltas.items())
    return register(card_id, CardScript(buff=buff, deathrattle=effect))


class Resummon(Effect):
    """A fresh copy of the dead source minion for its controller, in the slot it left."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        board = g.board[ctx.player]
        pos = min(ctx.slot, len(board)) if ctx.slot >= 0 else len(board)
        g.summon(ctx.player, g.card_id(ctx.source), pos, creator=ctx.source)


def enchantment_with_trigger(card_id: str, trigger: Trigger, **deltas: int) -> CardScript:
    """An enchantment with deltas and a trigger of its own (Power Overwhelming: +4/+4,
    then at the end of the turn its bearer dies)."""
    buff = tuple((int(GameTag[name.upper()]), value) for name, value in deltas.items())
    return register(card_id, CardScript(buff=buff, triggers=(trigger,)))


__all__ += [
    "FRIENDLY_PLAYER",
    "Consume",
    "DamageEach",
    "DamageRange",
    "DrawEach",
    "DrawOfRace",
    "GiveRandomOf",
    "LoseManaCrystal",
    "ReplaceHero",
    "ReplaceHeroPower",
    "Resummon",
    "SummonRandomOf",
    "enchantment_with_deathrattle",
    "enchantment_with_trigger",
    "hero_power_is",
    "stats_enchantment",
]


# --- hunter ---
# Mid-turn choices from the deck (Tracking, Sightless Watcher), secrets destroyed (Flare,
# SI:7 Infiltrator), "for each" summons and the minions next to a target.
from .primitives import ChoiceDone  # noqa: E402
from .script import EV_SECRET_REVEALED  # noqa: E402

ENEMY_SECRETS = Selector(lambda g, ctx: list(g.secrets[3 - ctx.player]), "ENEMY_SECRETS")


def _adjacent_to_target(g: Primitives, ctx: Ctx) -> list[int]:
    if not ctx.target or not g.is_on_board(ctx.target):
        return []
    board = g.board[g.controller_of(ctx.target)]
    i = board.index(ctx.target)
    return [board[j] for j in (i - 1, i + 1) if 0 <= j < len(board)]


# The minions next to the chosen target, found before anything is dealt (Explosive Shot).
ADJACENT_TO_TARGET = Selector(_adjacent_to_target, "ADJACENT_TO_TARGET")


def ONE_OF(sel: Selector) -> Selector:
    """One random entity of ``sel``, alive or not (a secret is not in play: SI:7
    Infiltrator's "a random enemy Secret")."""

    def pick(g: Primitives, ctx: Ctx) -> list[int]:
        pool = sel(g, ctx)
        return [pool[g.rng.below(len(pool))]] if pool else []

    return Selector(pick, f"ONE_OF({sel.name})")


class SummonFor(Summon):
    """Summon ``card_id`` once for each entity ``per`` selects, at the right end
    (Unleash the Hounds: a Hound for each enemy minion), as many as fit."""

    def __init__(self, card_id: str, per: Selector) -> None:
        super().__init__(card_id, 1, "end")
        self.per = per

    def run(self, g: Primitives, ctx: Ctx) -> None:
        Summon(self.card_id, len(self.per(g, ctx)), self.side).run(g, ctx)


class DestroySecret(Effect):
    """Destroy each selected secret: to the graveyard, shown, its effect never run."""

    def __init__(self, sel: Selector) -> None:
        self.sel = sel

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for s in self.sel(g, ctx):
            g.destroy_secret(s)


def draw_chosen_discard_rest(g: Primitives, ctx: Ctx, chosen: int, offered: tuple[int, ...]
                             ) -> None:
    """Tracking's pick: the chosen card is drawn, the others are discarded (neither shown
    to the opponent)."""
    g.take_into_hand(ctx.player, chosen)
    for i in offered:
        if i != chosen:
            g.discard_unseen(i)


def chosen_on_top(g: Primitives, ctx: Ctx, chosen: int, offered: tuple[int, ...]) -> None:
    """Sightless Watcher's pick: the chosen card goes to the top of the deck, the others
    stay where they are."""
    g.put_on_top(ctx.player, chosen)


class ChooseFromDeck(Effect):
    """The controller looks at ``count`` cards of their deck and picks one (a mid-turn
    choice, ``Kind.CHOOSE``); ``on_pick`` does what the card says with the pick (and lets
    ``State.from_view`` reopen the choice from the card).

    ``top``: the top cards, set aside out of the deck while the player looks (Tracking);
    else ``count`` distinct random cards that stay in the deck (Sightless Watcher). Fewer
    cards in the deck: all of them are offered; none: no choice."""

    reads_hidden = True  # what it offers depends on the hidden deck order

    def __init__(self, count: int, on_pick: ChoiceDone, top: bool = True) -> None:
        self.count, self.on_pick, self.top = count, on_pick, top

    def run(self, g: Primitives, ctx: Ctx) -> None:
        deck = g.deck[ctx.player]
        if self.top:
            offered = deck[::-1][: self.count]
            for i in offered:
                g.set_aside_unseen(i)
        else:
            pool = sorted(deck)  # pick by entity id: deck order plays no part
            offered = []
            while pool and len(offered) < self.count:
                offered.append(pool.pop(g.rng.below(len(pool))))
        g.offer_choice(ctx.player, ctx.source, offered, self.on_pick)


__all__ += [
    "ADJACENT_TO_TARGET",
    "ENEMY_SECRETS",
    "EV_SECRET_REVEALED",
    "ONE_OF",
    "ChooseFromDeck",
    "DestroySecret",
    "SummonFor",
    "chosen_on_top",
    "draw_chosen_discard_rest",
]

# --- mage ---
from .carddb import load_cards  # noqa: E402

FRIENDLY_SECRETS = Selector(lambda g, ctx: list(g.secrets[ctx.player]), "FRIENDLY_SECRETS")


class GiveOfClass(Effect):
    """Add a random collectible card the engine plays, of a type and a class, to the
    controller's hand (Tome of Intellect: a Mage spell)."""

    def __init__(self, card_type: int, card_class: int) -> None:
        self.card_type, self.card_class = card_type, card_class

    def run(self, g: Primitives, ctx: Ctx) -> None:
        db = load_cards()
        pool = [c for c in g.card_pool(self.card_type) if db[c].card_class == self.card_class]
        if pool:
            g.give(ctx.player, pool[g.rng.below(len(pool))])


__all__ += ["FRIENDLY_SECRETS", "GiveOfClass"]


# --- druid ---


class GainFullManaCrystals(Effect):
    """Gain full Mana Crystals (Nourish's Rampant Growth), never above 10."""

    def __init__(self, amount: int) -> None:
        self.amount = amount

    def run(self, g: Primitives, ctx: Ctx) -> None:
        g.gain_mana_crystal(ctx.player, self.amount, full=True)


class HeroAttack(Lazy):
    """The controller's hero's Attack as in combat, its weapon included (Savagery)."""

    def eval(self, g: Primitives, ctx: Ctx) -> int:
        return g.attack_value(g.hero[ctx.player])


__all__ += ["GainFullManaCrystals", "HeroAttack"]


# --- costs ---
# Cost auras on cards in hand, one-shot "the next ... costs" enchantments on a player, cost
# enchantments on a drawn card and the Giants' own reductions. The cost layer
# (games/hearth/costs.py) applies them in SabberStone's order.
from typing import Any  # noqa: E402

from .enums import NUM_MINIONS_PLAYED_THIS_TURN  # noqa: E402
from .script import Condition, CostMod  # noqa: E402

ENEMY_HAND = Selector(lambda g, ctx: list(g.hand[3 - ctx.player]), "ENEMY_HAND")
ALL_HANDS = Selector(lambda g, ctx: [*g.hand[1], *g.hand[2]], "ALL_HANDS")


def OF_TYPE(sel: Selector, card_type: int) -> Selector:
    """The cards of one type, e.g. ``OF_TYPE(FRIENDLY_HAND, T_SPELL)`` (your spells)."""
    return sel.filter(lambda g, i: g.card_type(i) == card_type, f"TYPE{int(card_type)}")


def CostAura(
    sel: Selector,
    enchant_id: str,
    *,
    less: int = 0,
    more: int = 0,
    set_to: int = -1,
    floor: int = 0,
) -> Aura:
    """While the source is in play, the cards in hand that ``sel`` names cost ``less``
    less / ``more`` more / ``set_to``; ``floor``: "but not less than (floor)" (Summoning
    Portal). ``enchant_id`` names the card data's enchantment of the text."""
    if floor and (more or set_to >= 0):
        raise ValueError(f"{enchant_id}: a floor goes with a reduction only")
    return Aura(sel, enchant_id, cost=CostMod(delta=more - less, set_to=set_to, floor=floor))


def no_minion_played(g: Primitives, ctx: Ctx) -> bool:
    """A condition: the controller played no minion this turn (Pint-Sized Summoner)."""
    return g.tag(1 + ctx.player, NUM_MINIONS_PLAYED_THIS_TURN) == 0


def is_spell(g: Primitives, listener: int, subject: int) -> bool:
    """A trigger condition: the card played is a spell."""
    return g.card_type(subject) == T_SPELL


def card_costing_less(card_id: str, less: Lazy, **kwargs: Any) -> CardScript:
    """Declare ``card_id`` (the keywords of :func:`card`) that costs ``less`` less while in
    hand (the Giants: ``Count(FRIENDLY_HAND - SELF)``; ``SELF`` is the card in hand)."""
    script = card(card_id, **kwargs)
    script = dataclasses.replace(script, self_cost=less.eval)
    SCRIPTS[card_id] = script
    return script


def cost_enchantment(card_id: str, aura: Aura, until: Trigger | None = None) -> CardScript:
    """An enchantment on a player that carries a cost aura (Preparation's, Kirin Tor
    Mage's, Millhouse's) and the trigger that takes it off once used; one with
    TAG_ONE_TURN_EFFECT also goes at the end of the turn."""
    return register(card_id, CardScript(auras=(aura,), triggers=() if until is None else (until,)))


def used_by(when: Condition) -> Trigger:
    """The one-shot's end: the controller plays a card ``when`` holds for (its cost is
    paid by then); a countered spell was played all the same."""
    return Trigger(EV_PLAYED, RemoveSelf(), ON_FRIENDLY, when=when)


class DrawAndEnchant(Draw):
    """Draw a card and attach ``enchant_id`` to it (Far Sight: it costs (3) less)."""

    def __init__(self, enchant_id: str) -> None:
        super().__init__(1)
        self.enchant_id = enchant_id

    def run(self, g: Primitives, ctx: Ctx) -> None:
        drawn = g.draw(ctx.player)
        if drawn:
            g.add_enchantment(self.enchant_id, drawn, ctx.source)


__all__ += [
    "ALL_HANDS",
    "ENEMY_HAND",
    "OF_TYPE",
    "CostAura",
    "DrawAndEnchant",
    "card_costing_less",
    "cost_enchantment",
    "is_spell",
    "no_minion_played",
    "used_by",
]


# --- rogue ---
# Return to hand (Sap, Vanish, Shadowstep, Freezing Trap), a spell that comes back from the
# graveyard (Headcrack), damage a minion is forced to deal (Betrayal), cards played before
# this one (Edwin VanCleef), a card of another class (Pilfer).
from .enums import (  # noqa: E402
    NUM_CARDS_PLAYED_THIS_TURN,
    SCRIPT_DATA_NUM_1,
    T_WEAPON,
    Z_GRAVEYARD,
)


class ReturnToHand(Effect):
    """Return each selected minion to its controller's hand as a fresh card; then, with
    ``enchant_id``, the card in hand gets that enchantment (Shadowstep's "It costs (2)
    less", Freezing Trap's "(2) more"), which a card back in hand keeps. A full hand: the
    minion goes to the graveyard without dying, and gets nothing."""

    def __init__(self, sel: Selector, enchant_id: str = "") -> None:
        self.sel, self.enchant_id = sel, enchant_id

    def run(self, g: Primitives, ctx: Ctx) -> None:
        for t in self.sel(g, ctx):
            back = g.return_to_hand(t)
            if back and self.enchant_id:
                g.add_enchantment(self.enchant_id, back, ctx.source)


def returns_next_turn(g: Primitives, listener: int, subject: int) -> bool:
    """A trigger condition: the card's combo marked it to come back (its script data)."""
    return g.tag(listener, SCRIPT_DATA_NUM_1) > 0


class ReturnNextTurn(Effect):
    """Headcrack's combo: the spell, once in the graveyard, comes back to its owner's hand
    at the start of their next turn. The mark is public (TAG_SCRIPT_DATA_NUM_1 on the
    spell in play), so a game rebuilt from a player's view listens the same way."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        g.set_tag(ctx.source, SCRIPT_DATA_NUM_1, 1)
        g.listen_from_graveyard(ctx.source)


# The trigger :class:`ReturnNextTurn` arms: at the start of the owner's turn, from the
# graveyard, the card goes back to the hand.
class BackFromGraveyard(Effect):
    def run(self, g: Primitives, ctx: Ctx) -> None:
        g.return_from_graveyard(ctx.source)


BACK_NEXT_TURN = Trigger(
    EV_TURN_START, BackFromGraveyard(), ON_FRIENDLY_PLAYER, when=returns_next_turn,
    zone=Z_GRAVEYARD,
)


class DamageBy(Effect):
    """Each selected entity takes ``amount`` from the first entity ``by`` selects, as its
    source (Betrayal: the enemy minion hits its neighbours; its Poisonous and Lifesteal
    count, no spell damage)."""

    def __init__(self, sel: Selector, amount: Num, by: Selector) -> None:
        self.sel, self.amount, self.by = sel, amount, by

    def run(self, g: Primitives, ctx: Ctx) -> None:
        src = self.by(g, ctx)
        if not src:
            return
        n = num(self.amount, g, ctx)
        for t in self.sel(g, ctx):  # the neighbours are found before anything is dealt
            g.damage(src[0], t, n)


class OtherCardsPlayed(Lazy):
    """The cards the controller played this turn before this one (NUM_CARDS_PLAYED_THIS_TURN
    counts the card being played already): Edwin VanCleef."""

    def eval(self, g: Primitives, ctx: Ctx) -> int:
        return max(0, g.tag(1 + ctx.player, NUM_CARDS_PLAYED_THIS_TURN) - 1)


class GiveOfAnotherClass(Effect):
    """Add a random collectible card the engine plays of a class other than the
    controller's hero's (neither neutral nor the own class) to the hand (Pilfer)."""

    def run(self, g: Primitives, ctx: Ctx) -> None:
        db = load_cards()
        own = db[g.card_id(g.hero[ctx.player])].card_class
        pool = sorted(
            c
            for t in (T_MINION, T_SPELL, T_WEAPON)
            for c in g.card_pool(t)
            if db[c].card_class not in (own, _NEUTRAL)
        )
        if pool:
            g.give(ctx.player, pool[g.rng.below(len(pool))])


_NEUTRAL = 12  # CardClass.NEUTRAL


__all__ += [
    "BACK_NEXT_TURN",
    "BackFromGraveyard",
    "DamageBy",
    "GiveOfAnotherClass",
    "OtherCardsPlayed",
    "ReturnNextTurn",
    "ReturnToHand",
    "returns_next_turn",
]
