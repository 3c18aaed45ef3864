"""The type of the session's flow, shared by its modules."""

from collections.abc import Generator
from typing import Any

from fairtable.protocol.session.slots import Slot

Flow = Generator[Slot, Any, None]
"""A generator yielding one :class:`Slot` per envelope the session expects, sent each accepted body's check result."""
