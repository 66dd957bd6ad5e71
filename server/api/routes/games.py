from __future__ import annotations

from fastapi import APIRouter

from server.api.deps import ContextDep
from server.api.schemas import GameOut

router = APIRouter(tags=["games"])


@router.get("/games", summary="The games this server plays")
def list_games(context: ContextDep) -> list[GameOut]:
    registered = context.store.list_bots() if context.store is not None else []
    return [GameOut(id=plugin.game_id, aliases=sorted(plugin.aliases), seats=plugin.seat_count,
                    protocols=sorted(plugin.protocols),
                    bots=[b.name for b in registered if b.game == plugin.game_id],
                    replay_formats=[f.name for f in plugin.replays])
            for plugin in sorted(context.games, key=lambda p: p.game_id)]
