"""Spectators: a node watches a live table through one seat's node and sees only the public view."""

from __future__ import annotations

import pytest
import trio

from fairtable.node.api.jsonvalues import jsonable
from fairtable.node.service import ILLEGAL, ServiceError
from fairtable.node.table.live import Timing
from tests.node.nodes import eventually, running
from tests.node.spectating import in_order, public_views


async def test_a_spectator_watches_through_a_guest_and_sees_every_update_as_the_public_view(tmp_path):
    async with running(tmp_path, 3, timing=Timing(bot_delay=0.01)) as (host, guest, spectator):
        lobby = await host.host("towers", "normal", {}, 2)
        await guest.join(host.address, lobby.lobby_id)
        await host.start(lobby.lobby_id)
        first = await spectator.watch(guest.address, lobby.lobby_id)
        assert first.watching and first.seat is None and first.seats == ("node-0", "node-1")
        seen = []
        with trio.fail_after(60):
            async for update in spectator.updates():
                assert update.seat is None and update.legal_moves == () and not update.your_turn and update.decision is None
                seen.append(jsonable(update.view))
                if update.phase == "finished":
                    break
        await eventually(lambda: guest.mesh.tables and next(iter(guest.mesh.tables.values())).saved)
        (table,) = guest.mesh.tables.values()
        assert len(seen) > 2 and in_order(seen, public_views(table.transcript_bytes()))
        with pytest.raises(ServiceError) as refused:
            await spectator.move(lobby.lobby_id, {"discard": 0})
        assert refused.value.code == ILLEGAL and "only watches" in str(refused.value)
