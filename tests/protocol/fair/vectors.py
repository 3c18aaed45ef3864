"""Builds the fairness test vectors in ``spec/vectors/fairness/`` from fixed inputs.

``python -m tests.protocol.fair.vectors`` rewrites the files; ``test_vectors.py`` checks that
the files equal what the code computes now, and re-derives their outputs from the spec's
formulas with nothing but hashlib, hmac, the codec and libsodium. Bytes are lowercase hex.
"""

from __future__ import annotations

import json

from fairtable.protocol import codec
from fairtable.protocol.fair import masked_sum
from fairtable.protocol.fair.deck_proofs import card_points, commit_keys, proof_context, prove_stage, proven_stage_body
from fairtable.protocol.fair.edwards import BASE, CHAIN_BASE, generators
from fairtable.protocol.fair.group import FIELD, ORDER, InvalidPoint, hash_to_point, ladder_scalars, multiply, multiply_each
from fairtable.protocol.fair.hidden_board import Board, CommittedBoard, open_body, root_body
from fairtable.protocol.fair.mental_deck import Deck, DeckKeys, composition_commitment, open_position, run_stage, stage_body
from fairtable.protocol.fair.private_stream import draw
from fairtable.protocol.fair.public_random import HashChain, public_below, public_value, reveal_body
from fairtable.protocol.fair.seeds import GameRef, Seed, Stream
from fairtable.protocol.fair.show import blind, blinding_scalars, shown_card, unblind
from fairtable.protocol.fair.simultaneous import choice_salt, commit_body
from fairtable.protocol.fair.simultaneous import reveal_body as choice_reveal_body
from tests.paths import VECTORS

DIRECTORY = VECTORS / "fairness"
TABLE = bytes.fromhex("7461626c652d69642d666f722d746573742d766563746f727300000000000000")
GAME = GameRef(TABLE, 3)
STREAM_KEY = bytes(range(32))
BOUNDS = (1, 2, 6, 102, 171, 256, 1000003, 1 << 64)


def seed(seat: int) -> Seed:
    """Seat ``s`` has the seed of 32 bytes all equal to ``s + 1``."""
    return Seed(GAME, seat, bytes([seat + 1]) * 32)


def _hex(value):
    """Bytes as hex, recursively, so a value fits in JSON."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, (list, tuple)):
        return [_hex(item) for item in value]
    if isinstance(value, dict):
        return {key: _hex(item) for key, item in value.items()}
    return value


def _context() -> dict:
    return {"table": TABLE.hex(), "game": GAME.index, "seed_rule": "seat s has 32 bytes all equal to s + 1"}


def seeds_vectors() -> dict:
    derivations = [
        (1, "deck/key", ["main"]),
        (1, "deck/permutation", ["main"]),
        (2, "choice/salt", ["salvo-1"]),
        (0, "private-stream", ["infinite", bytes(32), 7]),
    ]
    below = []
    for k in BOUNDS:
        stream = Stream(STREAM_KEY)
        below.append({"k": k, "values": [stream.below(k) for _ in range(12)]})
    return {
        "description": "Seed commitments, HKDF derivations, the HMAC-SHA512 stream, rejection sampling and "
        "Fisher-Yates. Each 'below' and 'permutations' entry starts a fresh stream from stream_key. "
        "Derivation contexts are canonical values; bytes appear here as {\"bin\": hex}.",
        **_context(),
        "seeds": [{"seat": s, "seed": seed(s).value.hex(), "commitment": seed(s).commitment.hex()} for s in range(3)],
        "derivations": [
            {
                "seat": seat,
                "label": label,
                "context": [{"bin": c.hex()} if isinstance(c, bytes) else c for c in context],
                "key": seed(seat).key(label, *context).hex(),
            }
            for seat, label, context in derivations
        ],
        "stream_key": STREAM_KEY.hex(),
        "stream": Stream(STREAM_KEY).read(150).hex(),
        "below": below,
        "permutations": [{"n": n, "permutation": list(Stream(STREAM_KEY).permutation(n))} for n in (0, 1, 2, 10, 52)],
    }


def public_random_vectors() -> dict:
    length = 4
    chains = {s: HashChain.derive(seed(s), length) for s in range(3)}
    values = []
    for index in range(1, length + 1):
        reveals = {s: chain.reveal(index) for s, chain in chains.items()}
        values.append(
            {
                "index": index,
                "value": public_value(GAME, index, reveals).hex(),
                "below_6": public_below(GAME, index, reveals, 6),
                "below_1000": public_below(GAME, index, reveals, 1000),
            }
        )
    return {
        "description": "Hash chains of length 4 for seats 0..2 (values[i] is x_i, values[0] the tip), "
        "the public values 1..4 and their first draw below 6 and below 1000.",
        **_context(),
        "length": length,
        "chains": [{"seat": s, "values": [v.hex() for v in chain.values]} for s, chain in chains.items()],
        "values": values,
        "reveal_body_msgpack": codec.encode(reveal_body(chains[0], 1)).hex(),
    }


def private_stream_vectors() -> dict:
    context = bytes.fromhex("5a" * 32)
    draws = [
        {"counter": counter, "k": k, "count": count, "values": list(draw(seed(1), "infinite", context, counter, k, count))}
        for counter, k, count in ((0, 102, 5), (1, 102, 5), (2, 6, 3), (3, 1 << 40, 2))
    ]
    return {
        "description": "Private draws of seat 1 from stream 'infinite' with a fixed public context.",
        **_context(),
        "seat": 1,
        "label": "infinite",
        "context": context.hex(),
        "draws": draws,
    }


def _deck_run(deck: Deck, composition=None) -> dict:
    keys = {s: DeckKeys.derive(seed(s), deck) for s in deck.seats}
    entries, stages = deck.initial(composition), []
    for stage in deck.stages:
        entries = run_stage(deck, stage.index, keys[stage.seat], entries)
        stages.append({"index": stage.index, "kind": stage.kind, "seat": stage.seat, "entries": _hex(entries)})
    opened = [
        list(open_position(deck, p, entries[p], {s: keys[s].position_keys[p] for s in deck.seats}))
        for p in range(deck.size)
    ]
    return {
        "label": deck.label.hex(),
        "candidates": [list(card) for card in deck.candidates],
        "points": _hex(deck.points),
        "keys": [
            {
                "seat": s,
                "deck_key": k.deck_key.hex(),
                "permutation": list(k.permutation),
                "position_keys": _hex(k.position_keys),
            }
            for s, k in keys.items()
        ],
        "initial": _hex(deck.initial(composition)),
        "stages": stages,
        "final_cards": opened,
    }


def mental_deck_vectors() -> dict:
    public = Deck.public(GAME, "tiny", [0, 1, 2], [7, 7, 9, 12])
    public_run = _deck_run(public)
    first = codec.encode(stage_body(public, 0, [bytes.fromhex(e) for e in public_run["stages"][0]["entries"]]))
    hidden = Deck.hidden(GAME, "own", [0, 1, 2], owner=1, size=3, catalogue=[100, 101, 102], max_copies=2)
    composition = [102, 100, 102]
    return {
        "description": "A public deck of 4 cards (two copies of card 7) and a hidden deck of 3 cards owned by "
        "seat 1, each shuffled by seats 0..2: labels, card points, every seat's derived secrets, every stage's "
        "entries, and the card each final position opens to as [id, copy].",
        **_context(),
        "public": {"name": public.name, "seats": list(public.seats), "cards": list(public.cards), **public_run},
        "public_stage_0_body_msgpack": first.hex(),
        "hidden": {
            "name": hidden.name,
            "seats": list(hidden.seats),
            "owner": hidden.owner,
            "catalogue": list(hidden.cards),
            "max_copies": hidden.max_copies,
            "size": hidden.size,
            "composition": composition,
            "composition_salt": seed(1).key("deck/composition-salt", hidden.name).hex(),
            "commitment": composition_commitment(seed(1), hidden, composition).hex(),
            **_deck_run(hidden, composition),
        },
    }


def hidden_board_vectors() -> dict:
    values = [0, 1, 1, 0, 2, 0]
    board = CommittedBoard.commit(seed(1), Board(GAME, 1, "fleet", 3, 2), values)
    return {
        "description": "A 3x2 board of seat 1 named 'fleet' (row-major values), its salts, leaves, padded tree "
        "levels (levels[0] the 8 padded leaves), root, and openings of cells (1, 0) and (2, 1).",
        **_context(),
        "owner": 1,
        "name": "fleet",
        "width": 3,
        "height": 2,
        "values": values,
        "label": board.board.label.hex(),
        "salts": _hex(board.salts),
        "levels": _hex(board.levels),
        "root": board.root.hex(),
        "root_body_msgpack": codec.encode(root_body(board)).hex(),
        "openings": _hex([opening.to_value() for opening in board.open([(1, 0), (2, 1)])]),
        "open_body_msgpack": codec.encode(open_body(board.board, board.open([(2, 1)]))).hex(),
    }


def simultaneous_vectors() -> dict:
    choices = {0: [[1, 2], [3, 4]], 1: "pass"}
    return {
        "description": "Commitments of seats 0 and 1 to their choices in round 'salvo-1'.",
        **_context(),
        "round": "salvo-1",
        "seats": [
            {
                "seat": s,
                "choice": choice,
                "salt": choice_salt(seed(s), "salvo-1").hex(),
                "commitment": commit_body(seed(s), "salvo-1", choice)["commitment"].hex(),
                "commit_body_msgpack": codec.encode(commit_body(seed(s), "salvo-1", choice)).hex(),
                "reveal_body_msgpack": codec.encode(choice_reveal_body(seed(s), "salvo-1", choice)).hex(),
            }
            for s, choice in choices.items()
        ],
    }


def show_vectors() -> dict:
    deck = Deck.public(GAME, "tiny", [0, 1, 2], [7, 7, 9, 12])
    keys = {s: DeckKeys.derive(seed(s), deck) for s in deck.seats}
    final = bytes.fromhex(_deck_run(deck)["stages"][-1]["entries"][1])
    holder, recipient, position, show = 0, 2, 1, "show-0"
    others = {s: keys[s].position_keys[position] for s in deck.seats if s != holder}
    (scalar,) = blinding_scalars(seed(recipient), deck, show, [position])
    (blinded,) = blind([scalar], [final], [others])
    (unblinded,) = unblind([keys[holder].position_keys[position]], [blinded])
    card = shown_card(deck, position, scalar, unblinded, holder, recipient)
    return {
        "description": "Position 1 of mental_deck.json's public deck 'tiny', dealt to seat 0 (seats 1 and 2 "
        "published their keys), shown to seat 2 in show round 'show-0': the blinding scalar, the blinded point "
        "seat 2 publishes, the point seat 0 returns, the card seat 2 opens, and both bodies (handle = position).",
        **_context(),
        "deck": deck.name,
        "holder": holder,
        "recipient": recipient,
        "position": position,
        "show": show,
        "final_entry": final.hex(),
        "published_keys": {str(s): key.hex() for s, key in others.items()},
        "holder_key": keys[holder].position_keys[position].hex(),
        "blinding_scalar": scalar.hex(),
        "blinded": blinded.hex(),
        "unblinded": unblinded.hex(),
        "card": list(card),
        "blind_body_msgpack": codec.encode({"points": [[position, blinded]], "round": show}).hex(),
        "unblind_body_msgpack": codec.encode({"points": [[position, recipient, unblinded]], "round": show}).hex(),
    }


def masked_sum_vectors() -> dict:
    seats, round_id = (0, 1, 2), "sum-0"
    keys = {s: masked_sum.pair_public_key(seed(s)) for s in seats}
    pairs = [(a, b) for a in seats for b in seats if a < b]
    secrets = {(a, b): masked_sum.pair_secret(GAME, a, b, keys, seed(a)) for a, b in pairs}
    assert all(secrets[(a, b)] == masked_sum.pair_secret(GAME, a, b, keys, seed(b)) for a, b in pairs)
    sums = [
        {"terms": [[0, 5], [1, 7]], "values": [0, 1], "bound": 2},
        {"terms": [[0, 3], [1, 2], [2, 9]], "values": [1, 0, 1], "bound": 2},
        {"terms": [[1, 0], [2, 4]], "values": [1, 1], "bound": 2},
    ]
    shares: dict[int, list[tuple[int, int]]] = {s: [] for s in seats}
    for index, entry in enumerate(sums):
        members = [seat for seat, _ in entry["terms"]]
        mod = masked_sum.modulus(len(members), entry["bound"])
        masks = {(a, b): masked_sum.mask(secrets[(a, b)], round_id, index, mod) for a, b in pairs if a in members and b in members}
        entry["modulus"] = mod
        entry["masks"] = [[a, b, value] for (a, b), value in sorted(masks.items())]
        entry["shares"] = []
        for seat, value in zip(members, entry["values"]):
            mine = {pair: m for pair, m in masks.items() if seat in pair}
            share = masked_sum.share(value, seat, mine, mod)
            assert masked_sum.claimed(share, seat, mine, mod) == value
            entry["shares"].append(share)
            shares[seat].append((index, share))
        entry["sum"] = sum(entry["shares"]) % mod
        assert entry["sum"] == sum(entry["values"])
    return {
        "description": "Masked sums of round 'sum-0' over seats 0, 1 and 2: each seat's X25519 pair key (secret = "
        "key(seat, 'sum/pair'), public = X25519 base point multiple), the pair-key body, every pair's secret, and three "
        "sums of 'ships' values below 2 (cells are the seats' board cells): modulus, masks [low, high, mask], each term's "
        "share, the sum; then each seat's shares body.",
        **_context(),
        "round": round_id,
        "keys": [{"seat": s, "secret": masked_sum.pair_secret_key(seed(s)).hex(), "public": keys[s].hex(),
                  "body_msgpack": codec.encode(masked_sum.pair_key_body(seed(s))).hex()} for s in seats],
        "pair_secrets": [{"low": a, "high": b, "secret": secrets[(a, b)].hex()} for a, b in pairs],
        "sums": sums,
        "shares_bodies": [{"seat": s, "body_msgpack": codec.encode(masked_sum.shares_body(round_id, shares[s])).hex()} for s in seats],
    }


WINDOW_SCALAR = pow(2, 255, ORDER)
"""A scalar in the window of fairness.md §1.1: neither it nor its negation fits one X25519 scalar."""


def _invalid_entries() -> list[tuple[str, bytes]]:
    point = hash_to_point("vectors/group", b"point 0")
    twist = next(u for u in range(2, 100) if pow((u**3 + 486662 * u * u + u) % FIELD, (FIELD - 1) // 2, FIELD) != 1)
    order_8 = 39382357235489614581723060781553021112529911719440698176882885853963445705823
    return [
        ("small order: (0, 0), of order 2", bytes(32)),
        ("small order: u = 1, of order 4", (1).to_bytes(32, "little")),
        ("small order: a point of order 8", order_8.to_bytes(32, "little")),
        ("u = p - 1: no Edwards y", (FIELD - 1).to_bytes(32, "little")),
        ("on the twist", twist.to_bytes(32, "little")),
        ("non-canonical: u + p", (9 + FIELD).to_bytes(32, "little")),
        ("non-canonical: bit 255 set", (9 | 1 << 255).to_bytes(32, "little")),
        ("non-canonical: u = p", FIELD.to_bytes(32, "little")),
        ("torsion-mixed pair: P, then P + T (T of order 2, u = 1/u(P))", point),
    ]


def group_vectors() -> dict:
    labels = [("vectors/group", f"point {i}".encode()) for i in range(3)]
    points = [hash_to_point(label, data) for label, data in labels]
    scalars = [1, 2, ORDER - 1, int.from_bytes(bytes(range(32)), "little") % ORDER, WINDOW_SCALAR]
    products = []
    for k in scalars:
        scalar = k.to_bytes(32, "little")
        products.append({
            "scalar": scalar.hex(),
            "x25519_scalars": [c.hex() for c in ladder_scalars(scalar)],
            "products": [p.hex() for p in multiply(scalar, points)],
        })
    scalar = scalars[3].to_bytes(32, "little")
    invalid = []
    for reason, entry in _invalid_entries():
        batch = [entry] if not reason.startswith("torsion") else [entry, pow(int.from_bytes(entry, "little"), -1, FIELD).to_bytes(32, "little")]
        try:
            multiply(scalar, batch)
        except InvalidPoint as exc:
            invalid.append({"reason": reason, "entries": [e.hex() for e in batch], "refused": exc.index})
        else:
            raise AssertionError(f"{reason}: accepted")
    lone = bytes.fromhex(invalid[-1]["entries"][1])
    return {
        "about": "fairness.md §1.1: card-style points (u of from_uniform of H(label, data)), scalars with the X25519 scalars "
        "that multiply by them (two in the window), products of each point, and entries the multiplication refuses "
        "(with the index refused). A lone torsion-mixed entry is not refused: its product is that of its prime-order part.",
        "points": [{"label": label, "data": data.hex(), "point": p.hex()} for (label, data), p in zip(labels, points)],
        "multiplications": products,
        "invalid": invalid,
        "lone_torsion_mixed": {"entry": lone.hex(), "scalar": scalar.hex(), "product": multiply_each([scalar], [lone])[0].hex()},
    }


def _scalars_hex(values) -> list[str]:
    return [value.to_bytes(32, "little").hex() for value in values]


def deck_proofs_vectors() -> dict:
    deck = Deck.public(GAME, "tiny", [0, 1, 2], [7, 7, 9, 12])
    keys = {s: DeckKeys.derive(seed(s), deck) for s in deck.seats}
    commitments = {s: commit_keys(keys[s]) for s in deck.seats}
    entries = card_points(deck)
    stages = []
    for stage in deck.stages:
        proven = prove_stage(deck, stage.index, seed(stage.seat), keys[stage.seat], commitments[stage.seat], entries)
        record: dict = {"index": stage.index, "kind": stage.kind, "seat": stage.seat}
        if proven.shuffle is not None:
            proof = proven.shuffle
            record["shuffled"] = _hex(proven.shuffled)
            record["shuffle_context"] = proof_context(deck, stage.index, "shuffle").hex()
            record["shuffle_proof"] = {
                "permutation_commitments": _hex(proof.permutation),
                "chain": _hex(proof.chain),
                "challenge": _scalars_hex([proof.challenge])[0],
                "responses": _scalars_hex(proof.responses),
                "chain_responses": _scalars_hex(proof.chain_responses),
                "vector_responses": _scalars_hex(proof.vector_responses),
            }
        if proven.lock is not None:
            record["lock_context"] = proof_context(deck, stage.index, "lock").hex()
            record["lock_proof"] = {"challenge": _scalars_hex([proven.lock.challenge])[0],
                                    "responses": _scalars_hex(proven.lock.responses)}
        record["entries"] = _hex(proven.entries)
        stages.append(record)
        entries = proven.entries
    return {
        "description": "mental_deck.json's public deck (4 cards, seats 0..2, the same seeds and secrets) with the "
        "proofs of fairness.md §12: generators, card points and key commitments on Edwards encodings, and every "
        "stage's entries with its shuffle argument and lock proof; scalars are 32 bytes little-endian.",
        **_context(),
        "name": deck.name,
        "seats": list(deck.seats),
        "cards": list(deck.cards),
        "base": BASE.hex(),
        "chain_base": CHAIN_BASE.hex(),
        "generators": _hex(generators(deck.size)),
        "card_points": _hex(card_points(deck)),
        "commitments": [
            {"seat": s, "deck_key": c.deck_key.hex(), "position_keys": _hex(c.position_keys)} for s, c in commitments.items()
        ],
        "stages": stages,
    }


def proved_stage_vectors() -> dict:
    deck = Deck.public(GAME, "tiny", [0, 1, 2], [7, 7, 9, 12], proved=True)
    keys = {s: DeckKeys.derive(seed(s), deck) for s in deck.seats}
    commitments = {s: commit_keys(keys[s]) for s in deck.seats}
    entries = deck.initial()
    bodies = []
    for stage in deck.stages:
        proven = prove_stage(deck, stage.index, seed(stage.seat), keys[stage.seat], commitments[stage.seat], entries)
        body = proven_stage_body(deck, stage.index, proven, commitments[stage.seat])
        bodies.append({"index": stage.index, "kind": stage.kind, "seat": stage.seat, "fields": sorted(body),
                       "body": codec.encode(body).hex()})
        entries = proven.entries
    return {
        "description": "deck_proofs.json's deck as a protocol version 3 table sends it (fairness.md §12.8): each "
        "stage's body, canonical msgpack, with its key commitments and proofs.",
        **_context(),
        "name": deck.name,
        "seats": list(deck.seats),
        "cards": list(deck.cards),
        "stages": bodies,
    }


BUILDERS = {
    "group.json": group_vectors,
    "seeds.json": seeds_vectors,
    "public_random.json": public_random_vectors,
    "private_stream.json": private_stream_vectors,
    "mental_deck.json": mental_deck_vectors,
    "hidden_board.json": hidden_board_vectors,
    "simultaneous.json": simultaneous_vectors,
    "show.json": show_vectors,
    "masked_sum.json": masked_sum_vectors,
    "deck_proofs.json": deck_proofs_vectors,
    "proved_stage.json": proved_stage_vectors,
}


def render(name: str) -> str:
    return json.dumps(BUILDERS[name](), indent=1) + "\n"


def write_all() -> None:
    DIRECTORY.mkdir(parents=True, exist_ok=True)
    for name in BUILDERS:
        (DIRECTORY / name).write_text(render(name))


if __name__ == "__main__":
    write_all()
