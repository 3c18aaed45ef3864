"""A link: one authenticated channel to another seat's node at one table, after the hellos.

Both directions work the same way: the sender keeps the peer holding everything we hold
(our own envelopes, other seats' envelopes we relay, and catch-up after a reconnect), writing
what it owes in one write, and the receiver offers the envelopes that arrived together (read
from the stream in one go) to the table as one batch: one journal fsync for all of them. ``peer_has`` is how many of our envelopes
the peer holds as far as we know: from its ``hello`` and ``sync`` (count and head hash),
from what it sent us and from what we sent it, so each envelope crosses a link once.
A head that differs from ours at the same count, or a conflicting envelope, means the peer
is on a fork: we send it our chain from the start (once per link) or from the conflict. A peer
that says it holds fewer envelopes than we counted (it could not keep them, its disk was full)
gets them again.

Once the table is finished here, every envelope we hold off the chain (evidence, forks, our own
dropped envelopes) goes to the peer once per link as ``ev``, before the final ``sync``, so every
seat's transcript file holds the same evidence. What an ``ev`` proves against its signer does
not count against the peer who passed it on.

Chat lines (``node.table.chat``) go the same way outside the chain: each line the peer does not
hold as far as we know (it sent it, or we did) is sent as ``chat`` before the final ``sync``, so a
link is complete only once the peer was sent every line we hold; a new line from the peer costs a
token of its own bucket (:data:`CHAT_RATE`), and one past it, or one that fails its checks, is
dropped with a log line and changes nothing.

The link ends with a reason: the channel failed, the peer misbehaved (a malformed or
unexpected message, too many refused envelopes, a flood, silence past the timeout), or
both sides hold the whole finished table.
"""

from __future__ import annotations

import logging

import trio

from fairtable.node.peer.errors import ChannelClosed, ChannelError
from fairtable.node.peer.messages import PEER_VERSION, BadMessage, message, parse
from fairtable.node.ratelimit import TokenBucket
from fairtable.node.table.chat import ChatRefused
from fairtable.node.table.live import LiveTable, Offered, Outcome
from fairtable.node.tasks import race
from fairtable.protocol import ChatError, ChatLine, Envelope, EnvelopeError

log = logging.getLogger("fairtable.node")

SILENCE_FACTOR = 3
"""A link silent for this many heartbeats is taken for a half-open connection and closed."""
MAX_REFUSED = 32
"""Refused or conflicting envelopes one link may carry before it is closed."""
MAX_EVIDENCE = 4096
"""``ev`` messages one link may carry: far more than an honest node holds off its chain."""
RATE = 2000.0
BURST = 4096.0
"""Messages per second a peer may send on one link, and the burst it may save up."""
MAX_BATCH = 64
"""Messages taken (or envelopes sent) as one batch: what arrived together is one journal fsync, and
a catch-up of hundreds of envelopes still goes in writes of a bounded size."""
CHAT_RATE = 2.0
CHAT_BURST = 20.0
"""New chat lines per second a peer may pass on one link, and the burst: a person's pace, twice over."""


def _envelope(received: dict) -> Envelope:
    try:
        return Envelope.from_value(received["env"])
    except EnvelopeError as exc:
        raise BadMessage(f"malformed envelope: {exc}") from None


def hello(table: LiveTable) -> dict:
    """The first message on a link, from each side: which table and seat, how far its chain goes,
    and the table's start (signed genesis, addresses, lobby id) for a peer that never received it."""
    start = {"genesis": table.genesis.to_value(), "lobby": table.lobby, "peers": list(table.addresses)}
    return message("hello", v=PEER_VERSION, table=table.table_id, seat=table.seat,
                   have=len(table.envelopes), head=table.session.head, start=start)


class LinkError(Exception):
    """The peer broke the link protocol; the message says how."""


class Link:
    """Run with :meth:`run`; ``settled`` tells afterwards whether the peer holds the whole finished table."""

    def __init__(self, channel, table: LiveTable, peer_seat: int, hello: dict, *, heartbeat: float, who: str) -> None:
        self.channel = channel
        self.table = table
        self.peer_seat = peer_seat
        self.heartbeat = heartbeat
        self.who = who
        self.peer_has = 0
        self.peer_final: bytes | None = None
        """The head the peer last named in a ``sync`` (its hello alone does not end a link: the
        evidence it sends comes before its final ``sync``)."""
        self.told_head: bytes | None = None
        """The head of the finished chain we last told the peer about (a fork can change it)."""
        self.refused = 0
        self._lacks: int | None = None
        """The lowest slot at which the peer sent us an envelope our chain does not hold: it lacks
        ours there, whatever envelope count its ``sync`` claims, until its head shows otherwise."""
        self.evidence = 0
        """``ev`` messages received."""
        self._evidence_sent: set[bytes] = set()
        """Hashes of the envelopes off the chain the peer holds: sent as ``ev`` or received from it."""
        self._resent = False
        self._asked = False
        """We are behind the peer: the next thing sent is a ``sync``."""
        self._forks_seen = len(table.forks)
        self._bucket = TokenBucket(RATE, BURST)
        self.peer_chat: set[tuple[int, int]] = set()
        """(author, counter) of the chat lines the peer holds: sent to it or received from it."""
        self._chat_bucket = TokenBucket(CHAT_RATE, CHAT_BURST)
        self._absorb(hello["have"], hello["head"])

    @property
    def settled(self) -> bool:
        """Both sides hold every envelope of the finished table."""
        head = self.table.session.head
        return self.table.finished and self.told_head == head and self.peer_final == head

    @property
    def complete(self) -> bool:
        """Settled, and the peer was sent every chat line we hold."""
        return self.settled and self.table.chat.keys() <= self.peer_chat

    async def run(self) -> str:
        """Run until the link ends; return why. Nothing a peer sends escapes as an exception."""
        try:
            await race(self._send_loop, self._receive_loop)
            await self._linger()
            return "both sides hold the finished table"
        except ChannelClosed as exc:
            return f"closed: {exc}"
        except (ChannelError, BadMessage, LinkError) as exc:
            log.warning("peer %s: %s; closing the link", self.who, exc)
            return str(exc)
        finally:
            await self.channel.aclose()

    async def _linger(self) -> None:
        """Read (and drop) what the peer still sends until it closes too, for one heartbeat at most.
        Closing with its messages unread would reset the connection, and a reset can destroy our
        final ``sync`` before the peer reads it: the peer would never know the link complete."""
        with trio.move_on_after(self.heartbeat):
            try:
                while True:
                    value = await self.channel.receive()
                    if isinstance(value, dict) and value.get("t") == "chat":
                        self._take_chat(parse(value, "chat"))  # a line said as the link ended
            except ChannelError:
                return  # the peer closed (or went): nothing is left to read
            except BadMessage as exc:
                log.info("peer %s: %s, after the link ended", self.who, exc)

    # ------------------------------------------------------------ what the peer holds

    def _absorb(self, have: int, head: bytes) -> None:
        """The peer says it holds ``have`` envelopes ending in ``head``."""
        envelopes = self.table.envelopes
        if have > len(envelopes):
            self.peer_has = max(self.peer_has, len(envelopes))
            if self._lacks is not None:
                self.peer_has = min(self.peer_has, self._lacks)
            return
        ours = envelopes[have - 1].hash if have else self.table.table_id
        if ours == head:
            self.peer_has = have
            self._lacks = None
        elif not self._resent:
            self._resent = True
            self.peer_has = 0
            log.info("peer %s: its chain differs from ours at %d envelopes; sending ours", self.who, have)

    def _catch_forks(self) -> None:
        """We gave up part of our chain for a peer's: the peer may lack what replaced it."""
        forks = self.table.forks[self._forks_seen:]
        if forks:
            self.peer_has = min(self.peer_has, *forks)
            self._forks_seen = len(self.table.forks)

    def _sync(self) -> dict:
        return message("sync", have=len(self.table.envelopes), head=self.table.session.head)

    # ------------------------------------------------------------ the two directions

    async def _send_loop(self) -> None:
        table = self.table
        while True:
            self._catch_forks()
            while self.peer_has < len(table.envelopes):
                owed = table.envelopes[self.peer_has:self.peer_has + MAX_BATCH]
                self.peer_has += len(owed)
                await self.channel.send_all([message("env", env=envelope.to_value()) for envelope in owed])
                self._catch_forks()
            await self._send_chat()
            await self._send_claims()
            if table.finished:
                await self._send_evidence()
            if table.finished and self.told_head != table.session.head:
                await self.channel.send(self._sync())
                self.told_head = table.session.head
            if self.complete:
                return
            version = table.version
            with trio.move_on_after(self.heartbeat) as quiet:
                while table.version == version and not self._asked:
                    await table.next_change().wait()  # one event for both: no task pair per change
            if not (self._asked or quiet.cancelled_caught):
                continue
            self._asked = False
            if table.finished:
                await self._send_evidence()  # a sync naming the final head may complete the link: evidence goes first
            await self.channel.send(self._sync())

    async def _send_chat(self) -> None:
        """Every chat line we hold that the peer does not (as far as this link knows)."""
        for line in list(self.table.chat.lines):
            if line.key not in self.peer_chat:
                self.peer_chat.add(line.key)
                await self.channel.send(message("chat", line=line.to_value()))

    async def _send_claims(self) -> None:
        """The absence claims we hold for slots of our chain (ours and those relayed to us) that the
        peer was not sent on this link: a claim is final only where every other present seat's claim
        is held, so each replica must come to hold every claim, those of slots it has left too."""
        for envelope in self.table.replica.held_claims():
            if envelope.hash not in self._evidence_sent:
                self._evidence_sent.add(envelope.hash)
                await self.channel.send(message("env", env=envelope.to_value()))

    async def _send_evidence(self) -> None:
        """Every envelope we hold off the chain that the peer was not sent on this link."""
        for envelope in self.table.replica.off_chain():
            if envelope.hash not in self._evidence_sent:
                self._evidence_sent.add(envelope.hash)
                await self.channel.send(message("ev", env=envelope.to_value()))

    async def _receive_loop(self) -> None:
        silence = SILENCE_FACTOR * self.heartbeat
        while not self.complete:
            values = [await self.channel.receive(timeout=silence)]
            while len(values) < MAX_BATCH and self.channel.buffered:
                values.append(await self.channel.receive())
            self._take_all(values)

    def _take_all(self, values: list) -> None:
        """Messages that arrived together, in order; each run of ``env`` among them is offered as
        one batch (one journal fsync). A message that breaks the link ends it after the envelopes
        before it were offered."""
        envelopes: list[Envelope] = []
        try:
            for value in values:
                if not self._bucket.take():
                    raise LinkError(f"message flood: more than {RATE:g} messages per second")
                received = parse(value, "env", "ev", "sync", "chat")
                if received["t"] == "env":
                    envelopes.append(_envelope(received))
                    continue
                self._offer_all(envelopes)
                envelopes = []
                if received["t"] == "chat":
                    self._take_chat(received)
                elif received["t"] == "sync":
                    self._absorb(received["have"], received["head"])
                    self.peer_final = received["head"]
                else:
                    self._take_evidence(_envelope(received))
        except (BadMessage, LinkError):
            self._offer_all(envelopes)
            raise
        self._offer_all(envelopes)

    def _take_chat(self, received: dict) -> None:
        """A chat line from the peer: kept when new and sound; otherwise dropped with a log line
        (a line that fails its checks counts as a refused message, so a stream of them closes the link)."""
        try:
            line = ChatLine.from_value(received["line"])
        except ChatError as exc:
            self._refuse(f"chat line dropped: {exc}")
            return
        if line.key in self.table.chat.keys():
            self.peer_chat.add(line.key)
            return
        if not self._chat_bucket.take():
            log.warning("peer %s: chat line %d of seat %d dropped: more than %g new lines per second",
                        self.who, line.n, line.seat, CHAT_RATE)
            return
        try:
            self.table.chat.take(line)
        except ChatRefused as exc:
            self._refuse(f"dropped: {exc}")
            return
        self.peer_chat.add(line.key)

    def _take_evidence(self, envelope: Envelope) -> None:
        """An envelope the peer holds off its chain: offered like any other, but a refusal proves
        something against its signer, not against the peer who passed it on."""
        self.evidence += 1
        if self.evidence > MAX_EVIDENCE:
            raise LinkError(f"more than {MAX_EVIDENCE} envelopes of evidence")
        self._evidence_sent.add(envelope.hash)
        offered = self.table.offer(envelope)
        if offered.outcome is Outcome.ACCEPTED:
            self._catch_forks()
        elif offered.outcome is Outcome.INVALID:
            self._count_refused(envelope, offered.reason)

    def _offer_all(self, envelopes: list[Envelope]) -> None:
        if envelopes:
            for envelope, offered in zip(envelopes, self.table.offer_all(envelopes), strict=True):
                self._offered(envelope, offered)

    def _offered(self, envelope: Envelope, offered: Offered) -> None:
        """What the table made of an envelope from the peer: what the peer holds, what to ask or refuse."""
        if offered.outcome in (Outcome.HELD, Outcome.OUTRANKED):
            self._evidence_sent.add(envelope.hash)  # the peer holds it: never send it back
        if offered.outcome in (Outcome.ACCEPTED, Outcome.DUPLICATE):
            if envelope.seq < len(self.table.envelopes) and self.table.envelopes[envelope.seq].hash == envelope.hash:
                self.peer_has = max(self.peer_has, envelope.seq + 1)
                if self._lacks is not None and envelope.seq >= self._lacks:
                    self._lacks = None
            self._catch_forks()
            return
        if offered.outcome is Outcome.HELD:
            if envelope.seq > len(self.table.envelopes):
                self._asked = True  # we are behind: say how far we are, and the peer sends the rest
                self.table.wake()
            return
        if offered.outcome is not Outcome.INVALID:
            # the peer holds another envelope for this slot: let it have ours from there
            self.peer_has = min(self.peer_has, envelope.seq)
            self._lacks = envelope.seq if self._lacks is None else min(self._lacks, envelope.seq)
        if offered.outcome is Outcome.OUTRANKED:
            # a fork or an absence claim the peer holds: kept as evidence, no misbehaviour
            log.info("peer %s: envelope %d %s: %s", self.who, envelope.seq, offered.outcome.value, offered.reason)
            return
        self._count_refused(envelope, f"{offered.outcome.value}: {offered.reason}")

    def _count_refused(self, envelope: Envelope, why: str) -> None:
        self._refuse(f"envelope {envelope.seq} {why}")

    def _refuse(self, why: str) -> None:
        self.refused += 1
        log.warning("peer %s: %s", self.who, why)
        if self.refused > MAX_REFUSED:
            raise LinkError(f"more than {MAX_REFUSED} refused envelopes or chat lines")
