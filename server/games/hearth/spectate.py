"""Hearth for spectators: both sides from the engine's per-player observations.

A neutral spectator gets each side as that side's *opponent* observes it (the engine hides
the hand's cards and the deck there), so no hidden card can reach it; `full` (an admin, or
anyone once the match is over) gets each side as its own player sees it. The ticker of
plays is read from the per-player history streams the same way: a player's plays as its
opponent saw them. Each line has its number in the match (`n`, from 0): a viewer that
keeps the frames knows which frame brought which line (the list of plays it draws).
`think`: the seat whose answer made the state and its think time (the viewer's clocks).

Secrets (entities in the SECRET zone, read from their tags: the 52-card set has none yet)
follow the same rule: a neutral spectator gets each side's secrets as hidden ones (only
how many), `full` gets their cards. A weapon comes with its attack and durability.

>>> from server.games.hearth import HearthGame
>>> r = HearthRenderer(HearthGame(seed=7), ["a", "b"])
>>> s = r.state(None, False)
>>> [len(p["hand"]) for p in s["players"]], "card" in s["players"][0]["hand"][0]
([5, 3], False)
>>> "card" in r.state(None, True)["players"][0]["hand"][0]
True
>>> r.state(None, False)["players"][0]["secrets"]
[]
"""

from __future__ import annotations

from typing import Any

from games.hearth.carddb import load_cards
from games.hearth.enums import (
    B_ATTACK,
    B_PLAY,
    B_POWER,
    B_TRIGGER,
    CONTROLLER,
    ZONE,
    ZONE_POSITION,
    Zone,
)
from games.hearth.history import PREFIX
from server.rooms.events import Entry, StateChanged
from server.spectate.frames import Frame, stored_with

TICKER = 12  # the latest plays each state carries
_BLOCK = PREFIX + "power_block"
Z_SECRET = int(Zone.SECRET)
_KINDS = {B_PLAY: "play", B_ATTACK: "attack", B_TRIGGER: "trigger", B_POWER: "power"}


def card_info(card_id: str) -> dict[str, Any]:
    card = load_cards().get(card_id)
    if card is None:
        return {"card": card_id, "name": card_id}
    return {"card": card_id, "name": card.name, "text": card.text}


def meta(names: list[str]) -> dict[str, Any]:
    return {"players": list(names)}


class HearthRenderer:
    hidden_information = True
    from_entries = False

    def __init__(self, game: Any, names: list[str]) -> None:
        self.game = game
        self.names = names
        self._marks = [0, 0]  # how far each player's history stream was read
        self._ticker: list[dict[str, Any]] = []
        self._count = 0  # lines so far: each line's `n`, which the viewer's list goes by
        self._turn = 0
        self._think: dict[str, int] | None = None  # the latest answer's (a snapshot's too)

    def meta(self) -> dict[str, Any]:
        return meta(self.names)

    def state(self, entry: Entry | None, full: bool) -> dict[str, Any]:
        if not full:
            self._read_plays()  # once per entry: the neutral state is asked first
        # The answer that made this entry's state; a snapshot repeats the latest, the result
        # none (its state is the last answer's: a viewer must not count it twice).
        think = self._think
        if entry is not None:
            event = entry.event
            think = think_json(event) if isinstance(event, StateChanged) else None
            if isinstance(event, StateChanged):
                self._think = think
        engine = self.game.state
        seen = [engine.observation(1), engine.observation(2)]
        hidden = secrets(engine)
        sides = []
        for q in (1, 2):
            side = seen[q - 1]["you"] if full else seen[2 - q]["opponent"]
            sides.append({**self._side(side, q), "secrets": hidden[q - 1] if full else [
                {"entity": secret["entity"], "hidden": True} for secret in hidden[q - 1]]})
        first = seen[0]
        return {
            "turn": first["turn"],
            "current": first["current_player"],
            "players": sides,
            "ticker": list(self._ticker[-TICKER:]),
            "over": bool(first["over"]),
            "full": full,
            "think": think,
        }

    def _side(self, side: dict[str, Any], player: int) -> dict[str, Any]:
        hand = []
        for card in side["hand"]:
            if "card" in card:
                hand.append({"entity": card["entity"], "cost": card["cost"],
                             **card_info(card["card"])})
            else:
                hand.append({"entity": card["entity"]})  # a card back
        weapon = side["weapon"]
        return {
            "player": player,
            "name": self.names[player - 1] if player - 1 < len(self.names) else "",
            "hero": {**side["hero"], **card_info(side["hero"]["card"])},
            "heroPower": {**side["hero_power"], **card_info(side["hero_power"]["card"])},
            "weapon": None if weapon is None else {**weapon, **card_info(weapon["card"])},
            "board": [{**m, **card_info(m["card"])} for m in side["board"]],
            "mana": side["mana"],
            "maxMana": side["max_mana"],
            "fatigue": side["fatigue"],
            "deck": side["deck_count"],
            "hand": hand,
        }

    def _read_plays(self) -> None:
        """New top-level plays, each from the stream of its player's opponent."""
        engine = self.game.state
        turn = engine.observation(1)["turn"]
        if turn != self._turn:
            self._turn = turn
            self._add({"kind": "turn", "turn": turn, "player": engine.observation(1)[
                "current_player"]})
        entities: dict[int, tuple[str, dict[int, int]]] | None = None
        for viewer in (1, 2):
            new = engine.history(viewer, self._marks[viewer - 1])
            self._marks[viewer - 1] += len(new)
            for item in new:
                if item["type"] != _BLOCK:
                    continue
                block = item["power_block"]
                kind = _KINDS.get(block["power_type"])
                if kind is None or block["entityID"] <= 3:
                    continue  # the game's and the players' own blocks: the turn steps
                if entities is None:
                    entities = engine.entities()
                source = entities.get(block["entityID"])
                owner = source[1].get(CONTROLLER) if source is not None else None
                if owner != 3 - viewer:
                    continue  # the viewer's own play: its opponent's stream tells it
                line: dict[str, Any] = {"kind": kind, "player": owner}
                if block.get("cardID"):
                    line.update(card_info(block["cardID"]))
                elif source is not None and source[0] and _public(source[1]):
                    line.update(card_info(source[0]))  # revealed by being played
                target = block.get("entity_target") or 0
                if target and target in entities and _public(entities[target][1]):
                    line["target"] = card_info(entities[target][0])["name"]
                self._add(line)

    def _add(self, line: dict[str, Any]) -> None:
        line["n"] = self._count
        self._count += 1
        self._ticker.append(line)
        if len(self._ticker) > 4 * TICKER:
            del self._ticker[:-TICKER]


def think_json(event: StateChanged) -> dict[str, int] | None:
    """The answer that made these news: its seat (from 0) and how long it thought, in ms;
    None for news no answer made (the start, a step's first request)."""
    if event.think is None or event.seat is None:
        return None
    return {"seat": event.seat, "ms": round(event.think * 1000)}


def secrets(engine: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each player's secrets in play (entity, card, name, text) by zone position, read
    from the entities' tags (the engine keeps no list of them)."""
    found: tuple[list[tuple[int, int, Any]], list[tuple[int, int, Any]]] = ([], [])
    ents: Any = getattr(engine, "ents", None)
    for i, e in (ents or {}).items():
        if e[ZONE] == Z_SECRET and e[CONTROLLER] in (1, 2):
            found[e[CONTROLLER] - 1].append((e[ZONE_POSITION], i, e.card))
    one, two = ([{"entity": i, "card": card.id, "name": card.name, "text": card.text}
                 for _, i, card in sorted(side, key=lambda t: t[:2])] for side in found)
    return one, two


def _public(tags: dict[int, int]) -> bool:
    """A target is named only when it is in play (heroes, minions) or a graveyard."""
    from games.hearth.enums import Z_GRAVEYARD, Z_PLAY, ZONE

    return tags.get(ZONE) in (Z_PLAY, Z_GRAVEYARD)


class HearthSpectating:
    """How spectators watch Hearth: the plugin's `spectating` (`server.games.registry`)."""

    def renderer(self, game: Any, names: list[str]) -> HearthRenderer:
        return HearthRenderer(game, names)

    def meta(self, names: list[str]) -> dict[str, Any]:
        return meta(names)

    def stored_frames(self, match_id: str, events: list[Any], names: list[str],
                      violation_seat: int | None) -> list[Frame]:
        """The frames stored with the events (a match stored before frames were has none
        to offer: its history alone does not say what a spectator saw)."""
        return stored_with(events)
