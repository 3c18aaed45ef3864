"""A :class:`~games.contract.Show` round: dealt cards shown to more seats, privately.

Round ``show-<n>`` (n counts the game's shows): each recipient, in seat order, sends ``blind``
with its blinded copy of every handle it is to see (not those it holds); then each holder, in
seat order, sends ``unblind`` removing its layer from every copy of its handles; each
recipient then opens its copies (``protocol.fair.show``). Nothing here is a free choice: every
message is recomputed from its author's seed by whoever knows it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fairtable.games.contract import Show
from fairtable.protocol.fair import show
from fairtable.protocol.fair.deck_proofs import equal_logs_value, read_equal_logs
from fairtable.protocol.fair.errors import FairnessError
from fairtable.protocol.fair.group import POINT_SIZE, InvalidPoint
from fairtable.protocol.session.run import DeckRecord, GameRun


def _malformed(seat: int, what: str) -> FairnessError:
    return FairnessError(seat, "session.malformed", what)


@dataclass
class ShowRound:
    """Who blinds which handles, who unblinds them, and the points sent so far."""

    run: GameRun
    name: str
    wanted: dict[int, tuple[int, ...]]
    """recipient -> the handles it is to see, increasing."""
    holders: dict[int, tuple[tuple[int, int], ...]]
    """holder -> its ``(handle, recipient)`` pairs, increasing."""
    blinded: dict[tuple[int, int], bytes] = field(default_factory=dict)
    unblinded: dict[tuple[int, int], bytes] = field(default_factory=dict)

    @classmethod
    def plan(cls, run: GameRun, request: Show) -> ShowRound:
        """The round for a ``Show``: which handles each recipient blinds and which holders unblind
        for whom, in handle order, so every node plans it alike."""
        wanted: dict[int, list[int]] = {}
        holders: dict[int, list[tuple[int, int]]] = {}
        for handle in sorted(set(request.handles)):
            record, position = run.handles.get(handle, (None, 0))
            holder = run.holder.get(handle)
            if record is None or holder is None:
                raise ValueError(f"the game showed handle {handle}, which was never dealt")
            if any(seat != holder and seat not in record.published.get(position, {}) for seat in record.deck.seats):
                raise ValueError(f"handle {handle} is not fully dealt: keys are missing")
            for recipient in sorted(set(request.to) - {holder}):
                wanted.setdefault(recipient, []).append(handle)
                holders.setdefault(holder, []).append((handle, recipient))
        run.show_rounds += 1
        return cls(run, f"show-{run.show_rounds - 1}", {r: tuple(hs) for r, hs in wanted.items()},
                   {h: tuple(pairs) for h, pairs in holders.items()})

    def _where(self, handle: int) -> tuple[DeckRecord, int]:
        return self.run.handles[handle]

    def _scalars(self, recipient: int, handles: tuple[int, ...]) -> dict[int, bytes]:
        """``b`` for each handle of ``recipient``: one stream per deck, positions in handle order."""
        scalars: dict[int, bytes] = {}
        for record in {self._where(h)[0].deck.name: self._where(h)[0] for h in handles}.values():
            mine = [h for h in handles if self._where(h)[0] is record]
            values = show.blinding_scalars(self.run.seeds[recipient], record.deck, self.name, [self._where(h)[1] for h in mine])
            scalars.update(zip(mine, values))
        return scalars

    # ------------------------------------------------------------ blind

    def blind_body(self, recipient: int) -> dict:
        """This recipient's ``blind`` body: its handles' entries under blinding scalars from its
        seed, so holders can unblind without learning the face."""
        handles = self.wanted[recipient]
        scalars = self._scalars(recipient, handles)
        entries, others = [], []
        for handle in handles:
            record, position = self._where(handle)
            holder = self.run.holder[handle]
            entries.append(record.entries[position])
            others.append({seat: record.published[position][seat] for seat in record.deck.seats if seat != holder})
        try:
            points = show.blind([scalars[h] for h in handles], entries, others, self.run.ops, self._times)
        except InvalidPoint as exc:
            record, _ = self._where(handles[exc.index])
            detail = f"the final entry of handle {handles[exc.index]} is not a group point"
            raise FairnessError(record.deck.stages[-1].seat, "deck.invalid-point", detail) from None
        return {"points": [[h, point] for h, point in zip(handles, points)], "round": self.name}

    def check_blind(self, recipient: int, body: Any) -> dict[int, bytes]:
        """The blinded points of a ``blind`` body, refused (naming the recipient) unless they are
        exactly the handles due, in order."""
        handles = self.wanted[recipient]
        pairs = self._points(recipient, body, 2)
        if tuple(pair[0] for pair in pairs) != handles:
            raise _malformed(recipient, f"blinded points for handles {list(handles)} are due")
        return {pair[0]: pair[1] for pair in pairs}

    def adopt_blind(self, recipient: int, points: dict[int, bytes]) -> None:
        """Keep an accepted ``blind`` so the holders' unblinds can be checked and built."""
        self.blinded.update({(handle, recipient): point for handle, point in points.items()})

    # ------------------------------------------------------------ unblind

    def unblind_body(self, holder: int) -> dict:
        """This holder's ``unblind`` body: its key layer removed from each blinded point it owes, in
        (handle, seat) order."""
        pairs = self.holders[holder]
        keys = []
        for handle, _ in pairs:
            record, position = self._where(handle)
            keys.append(record.keys_of(holder).position_keys[position])
        blinded = [self.blinded[pair] for pair in pairs]
        try:
            points = show.unblind(keys, blinded, self.run.ops, self._times)
        except InvalidPoint as exc:
            handle, recipient = pairs[exc.index]
            raise FairnessError(recipient, "deck.invalid-point", f"the blinded point for handle {handle} is not a group point") from None
        body: dict[str, Any] = {"points": [[h, r, point] for (h, r), point in zip(pairs, points)], "round": self.name}
        if self.run.proved:
            context = show.unblind_context(self.run.fair, self.name, holder)
            proof = show.prove_unblind(self.run.seeds[holder], context, self.name, keys, self._commitments(holder, pairs), blinded, points)
            body["proof"] = equal_logs_value(proof)
        return body

    def check_unblind(self, holder: int, body: Any) -> dict[tuple[int, int], bytes]:
        """The points of an ``unblind`` body, refused (naming the holder) unless they are exactly
        the (handle, seat) pairs due; on a proved deck, with the proof that each is its blinded
        point under the holder's committed key (``deck.bad-proof``, fairness.md §12.8)."""
        due = self.holders[holder]
        if isinstance(body, dict) and self.run.proved and set(body) == {"points", "round"}:
            raise FairnessError(holder, "deck.bad-proof", f"the unblinding of {self.name} carries no proof")
        items = self._points(holder, body, 3, frozenset({"proof"}) if self.run.proved else frozenset())
        if tuple((item[0], item[1]) for item in items) != due:
            raise _malformed(holder, f"unblinded points for (handle, seat) {[list(pair) for pair in due]} are due")
        if self.run.proved:
            try:
                proof = read_equal_logs(body["proof"], len(due), "the unblinding proof")
            except ValueError as exc:
                raise FairnessError(holder, "deck.bad-proof", f"{self.name}: {exc}") from None
            context = show.unblind_context(self.run.fair, self.name, holder)
            if not show.verify_unblind(context, self._commitments(holder, due), [self.blinded[pair] for pair in due],
                                       [item[2] for item in items], proof):
                raise FairnessError(holder, "deck.bad-proof", f"the unblinding of {self.name} is not the blinded points under the committed keys")
        return {(item[0], item[1]): item[2] for item in items}

    def _commitments(self, holder: int, pairs: tuple[tuple[int, int], ...]) -> list[bytes]:
        """``K_{A,j}`` of the holder for each pair's position (a proved deck's)."""
        result = []
        for handle, _ in pairs:
            record, position = self._where(handle)
            result.append(record.commitments[holder].position_keys[position])
        return result

    @property
    def _times(self) -> Callable[..., list[bytes]]:
        """The decks' multiplication (u-coordinates, or Edwards encodings in a proved game)."""
        return self.run.decks[0].deck.multiply_each

    def adopt_unblind(self, points: dict[tuple[int, int], bytes]) -> None:
        """Keep an accepted ``unblind``: once all are in, each recipient opens its faces."""
        self.unblinded.update(points)

    # ------------------------------------------------------------ opening

    def open(self, local: int | None) -> tuple[dict[int, int], FairnessError | None]:
        """The faces this session now sees: the local recipient's (the verifier knows them all)."""
        if local is None:
            shown = {h for handles in self.wanted.values() for h in handles}
            return {h: self.run.known_faces[h] for h in sorted(shown) if h in self.run.known_faces}, None
        handles = self.wanted.get(local, ())
        if not handles:
            return {}, None
        scalars = self._scalars(local, handles)
        faces: dict[int, int] = {}
        for handle in handles:
            record, position = self._where(handle)
            holder = self.run.holder[handle]
            try:
                card = show.shown_card(record.deck, position, scalars[handle], self.unblinded[(handle, local)], holder, local, self.run.ops)
            except FairnessError as exc:
                return faces, exc
            faces[handle] = card.id
        self.run.known_faces.update(faces)
        return faces, None

    def _points(self, seat: int, body: Any, width: int, extra: frozenset[str] = frozenset()) -> list[tuple]:
        """The ``points`` array of a blind (``[handle, point]``) or unblind (``[handle, seat, point]``) body."""
        if not isinstance(body, dict) or set(body) != {"points", "round"} | extra or body["round"] != self.name:
            raise _malformed(seat, f"a {'blind' if width == 2 else 'unblind'} message is {{points, round: {self.name!r}}}")
        items = body["points"]
        if not isinstance(items, tuple) or not all(
                isinstance(item, tuple) and len(item) == width and all(type(x) is int for x in item[:-1])
                and isinstance(item[-1], bytes) and len(item[-1]) == POINT_SIZE for item in items):
            raise _malformed(seat, f"points are [{'handle' if width == 2 else 'handle, seat'}, 32-byte point] entries")
        return list(items)
