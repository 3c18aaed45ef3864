"""The vectors in ``spec/vectors/fairness`` against the code and against the spec's formulas.

The reference functions here follow ``spec/fairness.md`` using only hashlib, hmac, the
canonical codec and libsodium, so a mismatch means the spec, the vectors or the code drifted.
"""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from nacl import bindings

from fairtable.protocol.codec import encode
from tests.protocol.fair.vectors import BUILDERS, DIRECTORY, render


def h(label: str, data: bytes) -> bytes:
    return hashlib.sha256(b"fairtable/v1/" + label.encode() + b"\0" + data).digest()


def hkdf(seed: bytes, info: bytes) -> bytes:
    prk = hmac.digest(bytes(32), seed, "sha256")
    return hmac.digest(prk, info + b"\x01", "sha256")


def derive(table: bytes, game: int, seat: int, seed: bytes, label: str, *context) -> bytes:
    return hkdf(seed, b"fairtable/v1/fair/derive\0" + encode([table, game, seat, label, list(context)]))


class RefStream:
    def __init__(self, key: bytes) -> None:
        self.key, self.data, self.pos = key, b"", 0

    def read(self, n: int) -> bytes:
        while len(self.data) < self.pos + n:
            self.data += hmac.digest(self.key, (len(self.data) // 64).to_bytes(8, "big"), "sha512")
        self.pos += n
        return self.data[self.pos - n : self.pos]

    def below(self, k: int) -> int:
        bits = (k - 1).bit_length()
        while bits:
            value = int.from_bytes(self.read((bits + 7) // 8), "big") % (1 << bits)
            if value < k:
                return value
        return 0

    def permutation(self, n: int) -> list[int]:
        order = list(range(n))
        for i in reversed(range(1, n)):
            j = self.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order

    def scalar(self) -> bytes:
        return bindings.crypto_core_ed25519_scalar_reduce(self.read(64))


def load(name: str) -> dict:
    return json.loads((DIRECTORY / name).read_text())


def x(text: str) -> bytes:
    return bytes.fromhex(text)


def seed_of(seat: int) -> bytes:
    return bytes([seat + 1]) * 32


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_vector_file_matches_the_code(name):
    assert (DIRECTORY / name).read_text() == render(name), f"regenerate with: python -m tests.protocol.fair.vectors ({name})"


def test_seeds_follow_the_spec():
    v = load("seeds.json")
    table, game = x(v["table"]), v["game"]
    for entry in v["seeds"]:
        assert x(entry["seed"]) == seed_of(entry["seat"])
        assert h("fair/seed", encode([table, game, entry["seat"], x(entry["seed"])])).hex() == entry["commitment"]
    for entry in v["derivations"]:
        context = [x(c["bin"]) if isinstance(c, dict) else c for c in entry["context"]]
        assert derive(table, game, entry["seat"], seed_of(entry["seat"]), entry["label"], *context).hex() == entry["key"]
    key = x(v["stream_key"])
    assert RefStream(key).read(150).hex() == v["stream"]
    for entry in v["below"]:
        stream = RefStream(key)
        assert [stream.below(entry["k"]) for _ in entry["values"]] == entry["values"]
    for entry in v["permutations"]:
        assert RefStream(key).permutation(entry["n"]) == entry["permutation"]


def test_public_random_follows_the_spec():
    v = load("public_random.json")
    table, game, length = x(v["table"]), v["game"], v["length"]
    for chain in v["chains"]:
        values = [x(value) for value in chain["values"]]
        assert values[length] == derive(table, game, chain["seat"], seed_of(chain["seat"]), "public-random/chain-end", length)
        for i in range(1, length + 1):
            assert h("fair/chain", encode([i, values[i]])) == values[i - 1]
    for entry in v["values"]:
        i = entry["index"]
        contributions = [[c["seat"], x(c["values"][i])] for c in v["chains"]]
        value = h("fair/public-random", encode([table, game, i, contributions]))
        assert value.hex() == entry["value"]
        assert RefStream(value).below(6) == entry["below_6"]
        assert RefStream(value).below(1000) == entry["below_1000"]


def test_private_stream_follows_the_spec():
    v = load("private_stream.json")
    table, game, seat = x(v["table"]), v["game"], v["seat"]
    for entry in v["draws"]:
        key = derive(table, game, seat, seed_of(seat), "private-stream", v["label"], x(v["context"]), entry["counter"])
        stream = RefStream(key)
        assert [stream.below(entry["k"]) for _ in range(entry["count"])] == entry["values"]


def check_deck(v: dict, table: bytes, game: int) -> None:
    label = h("fair/deck", encode([table, game, v["name"]]))
    assert label.hex() == v["label"]
    for (card, copy), point in zip(v["candidates"], v["points"]):
        assert bindings.crypto_core_ed25519_from_uniform(h("fair/card", encode([label, card, copy]))).hex() == point
    keys = {}
    for entry in v["keys"]:
        seat = entry["seat"]

        def stream(kind: str) -> RefStream:
            return RefStream(derive(table, game, seat, seed_of(seat), f"deck/{kind}", v["name"]))

        positions = stream("positions")
        assert stream("key").scalar().hex() == entry["deck_key"]
        assert stream("permutation").permutation(len(v["initial"])) == entry["permutation"]
        assert [positions.scalar().hex() for _ in v["initial"]] == entry["position_keys"]
        keys[seat] = entry
    entries = [x(e) for e in v["initial"]]
    mult = bindings.crypto_scalarmult_ed25519_noclamp
    for stage in v["stages"]:
        k = keys[stage["seat"]]
        deck_key, position_keys = x(k["deck_key"]), [x(p) for p in k["position_keys"]]
        if stage["kind"] == "shuffle":
            entries = [mult(deck_key, entries[i]) for i in k["permutation"]]
        elif stage["kind"] == "shuffle-lock":
            entries = [mult(position_keys[j], entries[i]) for j, i in enumerate(k["permutation"])]
        else:
            inverse = bindings.crypto_core_ed25519_scalar_invert(deck_key)
            entries = [mult(bindings.crypto_core_ed25519_scalar_mul(p, inverse), e) for p, e in zip(position_keys, entries)]
        assert [e.hex() for e in entries] == stage["entries"]
    lookup = {point: card for point, card in zip(v["points"], v["candidates"])}
    for position, entry in enumerate(entries):
        total = (1).to_bytes(32, "little")
        for k in keys.values():
            total = bindings.crypto_core_ed25519_scalar_mul(total, x(k["position_keys"][position]))
        opened = mult(bindings.crypto_core_ed25519_scalar_invert(total), entry)
        assert lookup[opened.hex()] == v["final_cards"][position]


def test_mental_deck_follows_the_spec():
    v = load("mental_deck.json")
    table, game = x(v["table"]), v["game"]
    public, hidden = v["public"], v["hidden"]
    check_deck(public, table, game)
    assert public["initial"] == public["points"]
    stage0 = {"deck": public["name"], "entries": [x(e) for e in public["stages"][0]["entries"]], "stage": 0}
    assert encode(stage0).hex() == v["public_stage_0_body_msgpack"]
    check_deck(hidden, table, game)
    salt = derive(table, game, hidden["owner"], seed_of(hidden["owner"]), "deck/composition-salt", hidden["name"])
    assert salt.hex() == hidden["composition_salt"]
    label = x(hidden["label"])
    assert h("fair/deck-composition", encode([label, salt, sorted(hidden["composition"])])).hex() == hidden["commitment"]
    assert sorted(card for card, _ in hidden["final_cards"]) == sorted(hidden["composition"])


def test_hidden_board_follows_the_spec():
    v = load("hidden_board.json")
    table, game, width = x(v["table"]), v["game"], v["width"]
    label = h("fair/board", encode([table, game, v["owner"], v["name"]]))
    assert label.hex() == v["label"]
    leaves = []
    for i, value in enumerate(v["values"]):
        salt = derive(table, game, v["owner"], seed_of(v["owner"]), "board/salt", v["name"], i)
        assert salt.hex() == v["salts"][i]
        leaves.append(h("fair/board-leaf", encode([label, i % width, i // width, salt, value])))
    leaves += [h("fair/board-pad", b"")] * (8 - len(leaves))
    level = leaves
    assert [n.hex() for n in level] == v["levels"][0]
    while len(level) > 1:
        level = [h("fair/board-node", level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    root = h("fair/board-root", encode([label, width, v["height"], level[0]]))
    assert root.hex() == v["root"]
    for cx, cy, value, salt, proof in v["openings"]:
        node, index = h("fair/board-leaf", encode([label, cx, cy, x(salt), value])), cy * width + cx
        for depth, sibling in enumerate(proof):
            node = h("fair/board-node", x(sibling) + node if index >> depth & 1 else node + x(sibling))
        assert h("fair/board-root", encode([label, width, v["height"], node])) == root


def test_simultaneous_follows_the_spec():
    v = load("simultaneous.json")
    table, game = x(v["table"]), v["game"]
    for entry in v["seats"]:
        seat = entry["seat"]
        salt = derive(table, game, seat, seed_of(seat), "choice/salt", v["round"])
        assert salt.hex() == entry["salt"]
        commitment = h("fair/choice", encode([table, game, seat, v["round"], salt, entry["choice"]]))
        assert commitment.hex() == entry["commitment"]
        assert encode({"commitment": commitment, "round": v["round"]}).hex() == entry["commit_body_msgpack"]
        reveal = {"choice": entry["choice"], "round": v["round"], "salt": salt}
        assert encode(reveal).hex() == entry["reveal_body_msgpack"]


def test_show_follows_the_spec():
    v = load("show.json")
    table, game = x(v["table"]), v["game"]
    mult, mul, invert = bindings.crypto_scalarmult_ed25519_noclamp, bindings.crypto_core_ed25519_scalar_mul, bindings.crypto_core_ed25519_scalar_invert
    scalar = RefStream(derive(table, game, v["recipient"], seed_of(v["recipient"]), "deck/blind", v["deck"], v["show"])).scalar()
    assert scalar.hex() == v["blinding_scalar"]
    others = (1).to_bytes(32, "little")
    for key in v["published_keys"].values():
        others = mul(others, x(key))
    blinded = mult(mul(scalar, invert(others)), x(v["final_entry"]))
    assert blinded.hex() == v["blinded"]
    unblinded = mult(invert(x(v["holder_key"])), blinded)
    assert unblinded.hex() == v["unblinded"]
    deck = load("mental_deck.json")["public"]
    point = mult(invert(scalar), unblinded).hex()
    assert deck["candidates"][deck["points"].index(point)] == v["card"] == deck["final_cards"][v["position"]]
    assert encode({"points": [[v["position"], blinded]], "round": v["show"]}).hex() == v["blind_body_msgpack"]


def test_masked_sums_follow_the_spec():
    v = load("masked_sum.json")
    table, game = x(v["table"]), v["game"]
    public = {}
    for entry in v["keys"]:
        secret = derive(table, game, entry["seat"], seed_of(entry["seat"]), "sum/pair")
        assert secret.hex() == entry["secret"]
        public[entry["seat"]] = bindings.crypto_scalarmult_base(secret)
        assert public[entry["seat"]].hex() == entry["public"]
        assert encode({"key": public[entry["seat"]]}).hex() == entry["body_msgpack"]
    secrets = {}
    for entry in v["pair_secrets"]:
        low, high = entry["low"], entry["high"]
        for own, other in ((low, high), (high, low)):
            shared = bindings.crypto_scalarmult(derive(table, game, own, seed_of(own), "sum/pair"), public[other])
            secret = h("fair/sum-pair", encode([table, game, low, high, public[low], public[high], shared]))
            assert secret.hex() == entry["secret"]
        secrets[(low, high)] = secret
    bodies: dict[int, list] = {entry["seat"]: [] for entry in v["keys"]}
    for index, entry in enumerate(v["sums"]):
        members = [seat for seat, _ in entry["terms"]]
        mod = len(members) * (entry["bound"] - 1) + 1
        assert mod == entry["modulus"]
        masks = {}
        for low, high, value in entry["masks"]:
            masks[(low, high)] = RefStream(h("fair/sum-mask", encode([secrets[(low, high)], v["round"], index]))).below(mod)
            assert masks[(low, high)] == value
        for seat, value, share in zip(members, entry["values"], entry["shares"]):
            plus = sum(m for (low, _), m in masks.items() if low == seat)
            minus = sum(m for (_, high), m in masks.items() if high == seat)
            assert (value + plus - minus) % mod == share
            bodies[seat].append([index, share])
        assert sum(entry["shares"]) % mod == entry["sum"] == sum(entry["values"])
    for entry in v["shares_bodies"]:
        assert encode({"round": v["round"], "shares": bodies[entry["seat"]]}).hex() == entry["body_msgpack"]
