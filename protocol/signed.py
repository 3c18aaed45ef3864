"""A record every signer signs: a table's genesis, a tournament's record (``spec/transcript.md``).

Both are valid only once each signer has signed the same bytes: the record's id, the hash of
its canonical encoding, under the record's own signing purpose. This module holds that rule
once, so the lobby, the verifier and the tournament bundle check signatures alike and name the
signer at fault: a missing, extra, malformed or forged signature is refused with its index.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from fairtable.protocol import codec
from fairtable.protocol.errors import ProtocolError
from fairtable.protocol.identity import SIGNATURE_SIZE, PublicKey, SecretKey


class Signable:
    """Base of a record that every signer signs; a record class supplies what differs.

    A subclass names its signing purpose, the noun for a signer in messages, its error class,
    and how to decode it; an instance gives the id every signer signs and the signers' keys and
    names, in the order their signatures are kept.
    """

    NOUN: ClassVar[str]
    """What the record is called in messages and its signed wire value (``genesis``, ``record``)."""
    SIGN_PURPOSE: ClassVar[str]
    SIGNER: ClassVar[str]
    """What a signer is called in a message (``seat``, ``participant``)."""
    Error: ClassVar[type[ProtocolError]]

    encoded: bytes

    @property
    def signed_id(self) -> bytes:
        """The bytes every signer signs: the hash of :attr:`encoded` (table id, record id)."""
        raise NotImplementedError

    @property
    def signers(self) -> tuple[tuple[PublicKey, str], ...]:
        """Each signer's key and name, in signature order."""
        raise NotImplementedError

    @classmethod
    def from_value(cls, value: Any) -> Self:
        """The record in a decoded value; raises :attr:`Error` naming what is wrong."""
        raise NotImplementedError

    @classmethod
    def from_bytes(cls, data: bytes) -> Self:
        """The record encoded in ``data``; raises :attr:`Error` when it is not a valid one."""
        try:
            return cls.from_value(codec.decode(data))
        except codec.CodecError as exc:
            raise cls.Error(f"{cls.NOUN} bytes: {exc}") from None

    def sign(self, secret: SecretKey) -> bytes:
        """This signer's signature of the record (it signs the id, under the record's purpose)."""
        return secret.sign(self.SIGN_PURPOSE, self.signed_id)

    def signer_label(self, index: int) -> str:
        """How a message names signer ``index``: ``seat 1 (bob)``."""
        return f"{self.SIGNER} {index} ({self.signers[index][1]})"

    def signature_problem(self, index: int, signature: Any) -> str | None:
        """Why ``signature`` is not signer ``index``'s signature of this record, or None when it is."""
        if not isinstance(signature, bytes) or len(signature) != SIGNATURE_SIZE:
            return f"the signature of {self.signer_label(index)} is not {SIGNATURE_SIZE} bytes"
        if not self.signers[index][0].verify(self.SIGN_PURPOSE, self.signed_id, signature):
            return f"the signature of {self.signer_label(index)} does not verify"
        return None

    def index_of(self, key: PublicKey) -> int | None:
        """The index of the signer holding ``key``, or None when it does not sign this record."""
        return next((i for i, (signer, _) in enumerate(self.signers) if signer == key), None)


R = TypeVar("R", bound=Signable)


@dataclass(frozen=True)
class SignedByAll(Generic[R]):
    """A record with every signer's signature, in signer order; constructing it checks them all.

    The wire value is ``{NOUN: record bytes, "sigs": [signature, ...]}``; a subclass names the
    record class.
    """

    record: R
    signatures: tuple[bytes, ...]

    RECORD: ClassVar[type[Signable]]

    def __post_init__(self) -> None:
        signers, count = len(self.record.signers), len(self.signatures)
        if count != signers:
            why = (f"the signature of {self.record.signer_label(count)} is missing" if count < signers
                   else f"the signatures from index {signers} on belong to no {self.record.SIGNER}")
            raise self.record.Error(f"{signers} {self.record.SIGNER}s but {count} signatures: {why}")
        for index, signature in enumerate(self.signatures):
            problem = self.record.signature_problem(index, signature)
            if problem is not None:
                raise self.record.Error(problem)

    def to_value(self) -> dict:
        """The wire value: the record's canonical bytes (so its id can be recomputed) and the signatures."""
        return {self.RECORD.NOUN: self.record.encoded, "sigs": list(self.signatures)}

    @classmethod
    def from_value(cls, value: Any) -> Self:
        """The signed record in a decoded wire value; raises the record's error naming what is wrong."""
        error, noun = cls.RECORD.Error, cls.RECORD.NOUN
        if not isinstance(value, dict) or set(value) != {noun, "sigs"}:
            raise error(f"a signed {noun} is a map with the keys {noun!r} and 'sigs'")
        if not isinstance(value[noun], bytes) or not isinstance(value["sigs"], tuple):
            raise error(f"a signed {noun} holds the {noun} as bin and the signatures as an array")
        return cls(cls.RECORD.from_bytes(value[noun]), value["sigs"])  # type: ignore[arg-type]
