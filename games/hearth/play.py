"""Playing a card, using the hero power, attacking, and which of those are legal now
(SabberStone's ``PlayCard.cs``, ``Attack.cs`` and ``Controller.Options``).

The legality rules sit next to what the actions do: costs, the board limit, play
requirements and targets, summoning sickness, Freeze, Windfury and Taunt.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import END_TURN, Action, Kind
from .carddb import load_cards
from .effects import Effects
from .entity import Entity
from .enums import (
    ATTACKING,
    B_ATTACK,
    B_PLAY,
    B_POWER,
    CANNOT_ATTACK_HEROES,
    CANT_ATTACK,
    CANT_BE_TARGETED_BY_HERO_POWERS,
    CANT_BE_TARGETED_BY_SPELLS,
    CANT_PLAY,
    CARD_TARGET,
    CARDRACE,
    CHARGE,
    COST,
    DAMAGE,
    DEFENDING,
    EXHAUSTED,
    FROZEN,
    IMMUNE,
    M_TARGET,
    MAX_BOARD,
    MAX_SECRETS,
    NUM_ATTACKS_THIS_TURN,
    NUM_CARDS_PLAYED_THIS_TURN,
    OVERLOAD,
    OVERLOAD_OWED,
    PROPOSED_ATTACKER,
    PROPOSED_DEFENDER,
    RESOURCES_USED,
    RUSH,
    SECRET,
    STEALTH,
    T_HERO,
    T_HERO_POWER,
    T_MINION,
    T_SPELL,
    T_WEAPON,
    TAUNT,
    WINDFURY,
    Z_GRAVEYARD,
    Z_PLAY,
    Z_SETASIDE,
    ZONE,
    ZONE_POSITION,
    PlayReq,
    Step,
)
from .primitives import Ctx
from .script import (
    EV_AFTER_ATTACK,
    EV_AFTER_CAST,
    EV_AFTER_PLAY_CARD,
    EV_AFTER_PLAYED,
    EV_ATTACK,
    EV_CAST,
    EV_PLAYED,
    EV_SUMMONED,
    CardScript,
)

_PLAY, _POWER, _ATTACK = Kind.PLAY, Kind.POWER, Kind.ATTACK
_NO_TARGET = (0,)
_MAIN_ACTION, _MAIN_COMBAT = int(Step.MAIN_ACTION), int(Step.MAIN_COMBAT)
_new = tuple.__new__  # builds an Action without NamedTuple's argument handling
REQ_MINION = int(PlayReq.REQ_MINION_TARGET)
REQ_FRIENDLY = int(PlayReq.REQ_FRIENDLY_TARGET)
REQ_ENEMY = int(PlayReq.REQ_ENEMY_TARGET)
REQ_DAMAGED = int(PlayReq.REQ_DAMAGED_TARGET)
REQ_NONSELF = int(PlayReq.REQ_NONSELF_TARGET)
REQ_HERO = int(PlayReq.REQ_HERO_TARGET)
REQ_SLOTS = int(PlayReq.REQ_NUM_MINION_SLOTS)
REQ_WEAPON = int(PlayReq.REQ_WEAPON_EQUIPPED)
REQ_RACE = int(PlayReq.REQ_TARGET_WITH_RACE)
REQ_MIN_ENEMY_MINIONS = int(PlayReq.REQ_MINIMUM_ENEMY_MINIONS)
REQ_HERO_ATTACKED = int(PlayReq.REQ_TARGET_IF_AVAILABLE_AND_HERO_ATTACKED_THIS_TURN)
REQ_UNDAMAGED = int(PlayReq.REQ_UNDAMAGED_TARGET)
REQ_MAX_ATTACK = int(PlayReq.REQ_TARGET_MAX_ATTACK)
REQ_MIN_ATTACK = int(PlayReq.REQ_TARGET_MIN_ATTACK)
REQ_ENTOURAGE = int(PlayReq.REQ_ENTIRE_ENTOURAGE_NOT_IN_PLAY)
REQ_TAUNTER = int(PlayReq.REQ_MUST_TARGET_TAUNTER)
REQ_MIN_TOTAL_MINIONS = int(PlayReq.REQ_MINIMUM_TOTAL_MINIONS)  # Brawl

# --- neutralB --- the tag that keeps a character from being targeted by a card of this type
_UNTARGETABLE = {T_SPELL: CANT_BE_TARGETED_BY_SPELLS, T_HERO_POWER: CANT_BE_TARGETED_BY_HERO_POWERS}


class Play(Effects):
    __slots__ = ()

    def _deaths(self) -> None:
        """The death phase, between a battlecry and the after-summon phase and at the end
        of every action; it belongs to the step machine (:meth:`.game.State._deaths`)."""
        raise NotImplementedError

    def _next(self, step: int) -> None:
        """Writes NEXT_STEP (:meth:`.game.State._next`)."""
        raise NotImplementedError

    def _step(self, step: int) -> None:
        """Writes STEP (:meth:`.game.State._step`)."""
        raise NotImplementedError

    def _action_step(self) -> None:
        """Back to MAIN_ACTION (:meth:`.game.State._action_step`)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ options

    def _main_options(self) -> list[Action]:
        """Every action of the current player in MAIN_ACTION (END_TURN first)."""
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
            if card.tags.get(SECRET) and not self._secret_fits(p, card.id):
                continue
            if script.choose:  # Choose One: each option with its own requirements
                db = load_cards()
                for k, option in enumerate(script.choose):
                    targets = self._card_targets(p, cid, db[option].script, full)
                    if targets is not None:
                        self._play_actions(out, cid, ctype, targets, slots, (k,))
                continue
            targets = self._card_targets(p, cid, script, full)
            if targets is not None:
                self._play_actions(out, cid, ctype, targets, slots, ())
        hp = ents[self.power[p]]
        if not hp[EXHAUSTED] and hp[COST] <= mana:
            script = hp.card.script
            reqs = script.requirements
            blocked = REQ_ENTOURAGE in reqs and self._entourage_in_play(p, script.entourage)
            if not blocked and not (REQ_SLOTS in reqs and full):
                targets = self._targets(p, reqs, hp.id) if script.takes_target else _NO_TARGET
                if targets or not script.needs_target:
                    for t in targets or _NO_TARGET:
                        out.append(_new(Action, (_POWER, hp.id, t, -1, ())))
        attackers = [i for i in (self.hero[p], *board) if self._can_attack(i)]
        if attackers:
            defenders = self._attack_targets(p)
            hero = self.hero[3 - p]
            for a in attackers:
                if hero in defenders and self._minions_only(a):
                    out.extend([_new(Action, (_ATTACK, a, d, -1, ())) for d in defenders
                                if d != hero])
                else:
                    out.extend([_new(Action, (_ATTACK, a, d, -1, ())) for d in defenders])
        return out

    def _targets(self, p: int, reqs: dict[int, int], source: int) -> list[int]:
        ents = self.ents
        out: list[int] = []
        if REQ_HERO_ATTACKED in reqs and not ents[self.hero[p]][NUM_ATTACKS_THIS_TURN]:
            return out  # Glaivebound Adept: a target only once the hero attacked this turn
        minion_only = REQ_MINION in reqs
        src = ents.get(source)
        untargetable = _UNTARGETABLE.get(src.card.type, 0) if src is not None else 0
        for q in (p, 3 - p):
            if REQ_FRIENDLY in reqs and q != p:
                continue
            if REQ_ENEMY in reqs and q == p:
                continue
            cands = list(self.board[q])
            if not minion_only:
                cands.insert(0, self.hero[q])
            for i in cands:
                if q != p and ents[i][STEALTH]:
                    continue  # Stealth: no enemy card or hero power may target it
                if untargetable and ents[i][untargetable]:
                    continue  # Faerie Dragon: no spell (or no hero power) may target it
                if REQ_HERO in reqs and ents[i].card.type != T_HERO:
                    continue
                if REQ_NONSELF in reqs and i == source:
                    continue
                if REQ_DAMAGED in reqs and not ents[i][DAMAGE]:
                    continue
                if REQ_RACE in reqs and ents[i][CARDRACE] != reqs[REQ_RACE]:
                    continue
                if REQ_UNDAMAGED in reqs and ents[i][DAMAGE]:
                    continue
                if REQ_MAX_ATTACK in reqs and self.attack_value(i) > reqs[REQ_MAX_ATTACK]:
                    continue
                if REQ_MIN_ATTACK in reqs and self.attack_value(i) < reqs[REQ_MIN_ATTACK]:
                    continue
                if REQ_TAUNTER in reqs and not ents[i][TAUNT]:
                    continue
                out.append(i)
        return out

    def _secret_fits(self, p: int, card_id: str) -> bool:
        """At most 5 secrets, and never two of the same card, in one SECRET zone."""
        secrets = self.secrets[p]
        if len(secrets) >= MAX_SECRETS:
            return False
        ents = self.ents
        return all(ents[i].card.id != card_id for i in secrets)

    def _entourage_in_play(self, p: int, entourage: tuple[str, ...]) -> bool:
        """REQ_ENTIRE_ENTOURAGE_NOT_IN_PLAY fails: ``p`` controls every card of it."""
        ents = self.ents
        mine = {ents[i].card.id for i in self.board[p]}
        return all(c in mine for c in entourage)

    def _can_attack(self, eid: int) -> bool:
        e = self.ents[eid]
        attacks = e[NUM_ATTACKS_THIS_TURN]
        # EXHAUSTED after an attack is the attack count's business (Windfury: a second one).
        if e[EXHAUSTED] and not attacks and not e[CHARGE] and not e[RUSH]:
            return False
        if attacks and attacks >= (2 if e[WINDFURY] or self._weapon_windfury(e) else 1):
            return False
        return not e[FROZEN] and not e[CANT_ATTACK] and self.attack_value(eid) > 0

    def _weapon_windfury(self, e: Entity) -> bool:
        """A hero attacks twice with a Windfury weapon (Doomhammer)."""
        if e.card.type != T_HERO:
            return False
        w = self.weapon[self.controller(e)]
        return bool(w and self.ents[w][WINDFURY])

    def _minions_only(self, eid: int) -> bool:
        """Rush on the turn it arrived (exhausted, no Charge), or "can't attack heroes"
        (the Warrior's Charge spell): only minions may be attacked."""
        e = self.ents[eid]
        return bool(e[CANNOT_ATTACK_HEROES] or (e[EXHAUSTED] and e[RUSH] and not e[CHARGE]))

    def _attack_targets(self, p: int) -> list[int]:
        """What ``p``'s characters may attack: Taunt minions if there are any (a Taunt in
        Stealth does not count), else the hero and every minion not in Stealth."""
        q = 3 - p
        ents = self.ents
        visible = [i for i in self.board[q] if not ents[i][STEALTH]]
        taunts = [i for i in visible if ents[i][TAUNT]]
        if taunts:
            return taunts
        return [self.hero[q], *visible]

    # ------------------------------------------------------------------ actions

    def _card_targets(self, p: int, cid: int, script: CardScript, full: bool
                      ) -> Sequence[int] | None:
        """The targets playing ``cid`` with ``script``'s text may take now (``_NO_TARGET``
        when it takes none), or None when its requirements forbid playing it."""
        board = self.board[p]
        reqs = script.requirements
        if reqs:
            if REQ_SLOTS in reqs and full:
                return None
            if REQ_WEAPON in reqs and not self.weapon[p]:
                return None
            if REQ_MIN_ENEMY_MINIONS in reqs and len(self.board[3 - p]) < reqs[
                REQ_MIN_ENEMY_MINIONS
            ]:
                return None
            if (
                REQ_MIN_TOTAL_MINIONS in reqs
                and len(board) + len(self.board[3 - p]) < reqs[REQ_MIN_TOTAL_MINIONS]
            ):
                return None
        takes, needs = script.takes_target, script.needs_target
        if script.combo is not None and self.ents[1 + p][NUM_CARDS_PLAYED_THIS_TURN]:
            # Combo: the combo text's requirements (SI:7 Agent targets only with it).
            reqs = script.combo_requirements or reqs
            takes, needs = script.combo_takes_target, script.combo_needs_target
        targets = self._targets(p, reqs, cid) if takes else _NO_TARGET
        if not targets:
            if needs:
                return None
            targets = _NO_TARGET
        return targets

    @staticmethod
    def _play_actions(out: list[Action], cid: int, ctype: int, targets: Sequence[int],
                      slots: range, cards: tuple[int, ...]) -> None:
        if ctype == T_MINION:
            out.extend([_new(Action, (_PLAY, cid, t, n, cards)) for t in targets for n in slots])
        else:
            out.extend([_new(Action, (_PLAY, cid, t, -1, cards)) for t in targets])

    def _pay(self, p: int, cost: int) -> None:
        if cost:
            pe = self.ents[1 + p]
            self._set(pe, RESOURCES_USED, pe[RESOURCES_USED] + cost)

    def _play(self, eid: int, target: int, position: int, choice: tuple[int, ...] = ()) -> None:
        p = self.current
        e = self.ents[eid]
        card = e.card
        self._block(B_PLAY, eid, target)
        self._pay(p, e[COST])
        hand = self.hand[p]
        hand.remove(eid)
        self._positions(hand)
        pe = self.ents[1 + p]
        combo = pe[NUM_CARDS_PLAYED_THIS_TURN] > 0  # another card was played before this one
        self._set(pe, NUM_CARDS_PLAYED_THIS_TURN, pe[NUM_CARDS_PLAYED_THIS_TURN] + 1)
        overload = card.tags.get(OVERLOAD)
        if overload:
            self._set(pe, OVERLOAD_OWED, pe[OVERLOAD_OWED] + overload)
        ctype = card.type
        script = card.script
        effect = script.combo if combo and script.combo is not None else script.play
        if choice:  # Choose One: the chosen option's text
            option = load_cards()[script.choose[choice[0]]]
            effect = option.script.play
        if ctype == T_SPELL:
            # "Whenever you cast a spell" resolves before the spell's text; the target is
            # kept in CARD_TARGET, where a trigger may change it (Spellbender) or the spell
            # be countered (CANT_PLAY: Counterspell). A secret stays hidden: it goes from
            # the hand to the SECRET zone, never to PLAY.
            self._set(e, ZONE_POSITION, 0)
            if target:
                self._set(e, CARD_TARGET, target)
            secret = bool(e[SECRET])
            if not secret:
                self._move(e, Z_PLAY)
            self._fire(EV_PLAYED, eid)
            self._fire(EV_CAST, eid)
            if self.queue:
                self._resolve()
            target = e[CARD_TARGET]
            if e[CANT_PLAY]:
                self._move(e, Z_GRAVEYARD)
                self._fire(EV_AFTER_PLAY_CARD, eid)
                self._deaths()
                self._end_block()
                return
            if secret:
                self._put_secret(e, p)
                self._fire(EV_AFTER_PLAY_CARD, eid)
                self._deaths()
                self._end_block()
                return
        else:
            self._fire(EV_PLAYED, eid)
            if self.queue:
                self._resolve()
        if ctype == T_MINION:
            self._set(e, ZONE_POSITION, 0)
            self._enter_board(e, p, position)
            self._update_auras()
            if effect is not None:
                self._block(B_POWER, eid, target)
                effect.run(self, Ctx(eid, target, p))
                self._end_block()
                # SabberStone's PlayMinion: a death phase between the battlecry and the
                # after-summon phase (a Juggler the battlecry killed throws nothing).
                self._deaths()
            if not self.over and e[ZONE] != Z_SETASIDE:  # Jaraxxus left: never summoned
                self._fire(EV_SUMMONED, eid)
                self._fire(EV_AFTER_PLAYED, eid)
        elif ctype == T_WEAPON:
            self._equip(e, p)
            if effect is not None:
                self._block(B_POWER, eid, target)
                effect.run(self, Ctx(eid, target, p))
                self._end_block()
        else:
            if self.hist is not None and target:
                self.hist.meta_data(M_TARGET, 0, [target])
            if effect is not None:
                self._block(B_POWER, eid, target)
                effect.run(self, Ctx(eid, target, p))
                self._end_block()
            self._move(e, Z_GRAVEYARD)
            self._fire(EV_AFTER_CAST, eid)
        if not self.over:
            self._fire(EV_AFTER_PLAY_CARD, eid)
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
        """An attack as a real log writes it: inside the ATTACK block the game proposes
        attacker and defender, marks them ATTACKING/DEFENDING, sets NEXT_STEP MAIN_ACTION
        and STEP MAIN_COMBAT, deals the combat damage, resolves the triggers it caused and
        clears those tags; the death phase follows the block, then STEP MAIN_ACTION
        again (unless the game ended: MAIN_COMBAT -> FINAL_WRAPUP)."""
        ents = self.ents
        a = ents[attacker]
        d = ents[defender]
        game = ents[1]
        set_ = self._set
        self._block(B_ATTACK, attacker, defender)
        set_(game, PROPOSED_ATTACKER, attacker)
        set_(game, PROPOSED_DEFENDER, defender)
        set_(a, ATTACKING, 1)
        self._next(_MAIN_ACTION)
        self._step(_MAIN_COMBAT)
        set_(d, DEFENDING, 1)
        set_(a, NUM_ATTACKS_THIS_TURN, a[NUM_ATTACKS_THIS_TURN] + 1)
        set_(a, EXHAUSTED, 1)
        if a[STEALTH]:
            set_(a, STEALTH, 0)  # attacking reveals
        self._fire(EV_ATTACK, attacker, defender)
        if self.queue:
            self._resolve()
            # A trigger may have given the attack a new defender (Misdirection, Noble
            # Sacrifice: :meth:`redirect_attack`).
            new = game[PROPOSED_DEFENDER]
            if new and new != defender:
                set_(d, DEFENDING, 0)
                defender = new
                d = ents[defender]
                set_(d, DEFENDING, 1)
        # A trigger that removed or mortally wounded either side cancels the attack.
        if self.alive(attacker) and self.alive(defender):
            dealt = self.attack_value(attacker)
            taken = self.attack_value(defender)
            # Combat damage is simultaneous: both amounts are fixed before either is dealt.
            self.damage(attacker, defender, dealt)
            self.damage(defender, attacker, taken)
            if a.card.type == T_HERO:
                w = self.weapon[self.controller(a)]
                if w and not ents[w][IMMUNE]:  # an Immune weapon loses none (Gorehowl)
                    we = ents[w]
                    set_(we, DAMAGE, we[DAMAGE] + 1)
                    self.maybe_dead = True
            self._fire(EV_AFTER_ATTACK, attacker, defender)
        if self.queue:
            self._resolve()  # the death phase's first part, inside the block as real logs do
        set_(game, PROPOSED_ATTACKER, 0)
        set_(game, PROPOSED_DEFENDER, 0)
        set_(a, ATTACKING, 0)
        set_(d, DEFENDING, 0)
        self._end_block()
        self._deaths()
        if not self.over:
            self._action_step()


__all__ = ["Play"]
