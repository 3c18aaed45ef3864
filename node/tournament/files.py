"""A tournament on disk: ``DIR/tournaments/<id hex>/`` is its bundle (``tournament.ftr`` and one
``<table id hex>.ftt`` per verified table) plus ``peers``, every participant's address.

Everything else a node knows of a tournament is recomputed from these files and the tables'
own journals, so a restarted node carries on where it stopped.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from fairtable.node.files import write_atomically
from fairtable.node.table.journal import JournalError
from fairtable.protocol import ProtocolError, codec
from fairtable.protocol.tournament import FILE_NAME, Tournament

TABLE_SUFFIX = ".ftt"


@dataclass(frozen=True)
class TournamentFiles:
    dir: Path

    @classmethod
    def of(cls, root: Path, tournament_id: bytes) -> TournamentFiles:
        return cls(root / tournament_id.hex())

    @classmethod
    def existing(cls, root: Path) -> Iterator[TournamentFiles]:
        if root.is_dir():
            for path in sorted(root.iterdir()):
                if (path / FILE_NAME).is_file():
                    yield cls(path)

    def create(self, tournament: Tournament, addresses: tuple[str, ...]) -> None:
        """Peers first, then the tournament file: a directory with the file is a whole tournament."""
        self.dir.mkdir(parents=True, exist_ok=True)
        write_atomically(self.dir / "peers", codec.encode({"addresses": list(addresses)}))
        write_atomically(self.dir / FILE_NAME, tournament.to_bytes())

    def tournament(self) -> Tournament:
        """The tournament file alone (a bundle handed to ``fairtable verify``); OSError or RecordError."""
        return Tournament.from_bytes((self.dir / FILE_NAME).read_bytes())

    def load(self) -> tuple[Tournament, tuple[str, ...]]:
        try:
            tournament = Tournament.from_bytes((self.dir / FILE_NAME).read_bytes())
            peers = codec.decode((self.dir / "peers").read_bytes())
        except (OSError, ProtocolError) as exc:
            raise JournalError(f"{self.dir}: {exc}") from None
        addresses = peers.get("addresses") if isinstance(peers, dict) else None
        if not isinstance(addresses, tuple) or len(addresses) != len(tournament.signed.record.participants) \
                or not all(isinstance(a, str) for a in addresses):
            raise JournalError(f"{self.dir}/peers: not one address per participant")
        return tournament, addresses

    def table_path(self, table_id: bytes) -> Path:
        return self.dir / f"{table_id.hex()}{TABLE_SUFFIX}"

    def table(self, table_id: bytes) -> bytes | None:
        try:
            return self.table_path(table_id).read_bytes()
        except OSError:
            return None

    def save_table(self, table_id: bytes, data: bytes) -> None:
        write_atomically(self.table_path(table_id), data)
