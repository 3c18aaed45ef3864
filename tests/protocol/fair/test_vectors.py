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

from fairtable.protocol import codec
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


# ---------------------------------------------------------------- the group of fairness.md §1.1, from the spec

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493


def ladder(s: int, u: int) -> int:
    """RFC 7748's X25519 ladder on ``u`` with the (already clamped) scalar ``s``."""
    x1, x2, z2, x3, z3, swap = u, 1, 0, u, 1, 0
    for t in reversed(range(255)):
        bit = (s >> t) & 1
        swap ^= bit
        if swap:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = bit
        a, b = (x2 + z2) % P, (x2 - z2) % P
        aa, bb = a * a % P, b * b % P
        e = (aa - bb) % P
        c, d = (x3 + z3) % P, (x3 - z3) % P
        da, cb = d * a % P, c * b % P
        x3, z3 = (da + cb) ** 2 % P, x1 * (da - cb) ** 2 % P
        x2, z2 = aa * bb % P, e * (aa + 121665 * e) % P
    if swap:
        x2, z2 = x3, z3
    return x2 * pow(z2, P - 2, P) % P


def clamped(k: int) -> int | None:
    """``2^254 + 8t`` with ``t = (r - 2^254)·8⁻¹ mod L`` for ``r = k``, else ``r = L - k``, if ``t < 2^251``."""
    for r in (k, L - k):
        t = (r - 2**254) * pow(8, L - 2, L) % L
        if t < 2**251:
            return 2**254 + 8 * t
    return None


def ladder_scalars(k: int) -> list[int]:
    """One clamped scalar for ``k``, or in the window the two for ``f`` and ``k/f``, ``f >= 2`` smallest."""
    if clamped(k) is not None:
        return [clamped(k)]
    f = 2
    while clamped(f) is None or clamped(k * pow(f, L - 2, L) % L) is None:
        f += 1
    return [clamped(f), clamped(k * pow(f, L - 2, L) % L)]


def mult(scalar: bytes, point: bytes) -> bytes:
    u = int.from_bytes(point, "little")
    assert u < P
    for s in ladder_scalars(int.from_bytes(scalar, "little")):
        u = ladder(s, u)
    assert u != 0
    return u.to_bytes(32, "little")


def to_u(edwards: bytes) -> bytes:
    """The Montgomery ``u = (1 + y)/(1 - y)`` of an Edwards encoding."""
    y = int.from_bytes(edwards, "little") & (2**255 - 1)
    return ((1 + y) * pow(1 - y, P - 2, P) % P).to_bytes(32, "little")


def card_point(label: str, data: bytes) -> bytes:
    return to_u(bindings.crypto_core_ed25519_from_uniform(h(label, data)))


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_vector_file_matches_the_code(name):
    assert (DIRECTORY / name).read_text() == render(name), f"regenerate with: python -m tests.protocol.fair.vectors ({name})"


def test_group_follows_the_spec():
    v = load("group.json")
    points = [x(p["point"]) for p in v["points"]]
    assert [card_point(p["label"], x(p["data"])).hex() for p in v["points"]] == [p.hex() for p in points]
    for entry in v["multiplications"]:
        k = int.from_bytes(x(entry["scalar"]), "little")
        assert [s.to_bytes(32, "little").hex() for s in ladder_scalars(k)] == entry["x25519_scalars"]
        assert [mult(x(entry["scalar"]), p).hex() for p in points] == entry["products"]
    assert len(v["multiplications"][-1]["x25519_scalars"]) == 2  # the window is exercised
    for entry in v["invalid"]:
        refused = x(entry["entries"][entry["refused"]])
        u = int.from_bytes(refused, "little")
        canonical = u < P - 1
        on_curve = canonical and pow((u**3 + 486662 * u * u + u) % P, (P - 1) // 2, P) in (0, 1)
        small = on_curve and ladder(clamped(1), u) == 0
        mixed = on_curve and len(entry["entries"]) == 2 and mult((1).to_bytes(32, "little"), refused) != refused
        assert not canonical or not on_curve or small or mixed, entry["reason"]
    lone = v["lone_torsion_mixed"]
    assert mult(x(lone["scalar"]), x(lone["entry"])).hex() == lone["product"]
    assert mult(x(lone["scalar"]), pow(int.from_bytes(x(lone["entry"]), "little"), -1, P).to_bytes(32, "little")).hex() == lone["product"]


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
        assert card_point("fair/card", encode([label, card, copy])).hex() == point
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
    mul, invert = bindings.crypto_core_ed25519_scalar_mul, bindings.crypto_core_ed25519_scalar_invert
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


# ---------------------------------------------------------------- the proof layer of fairness.md §12, from the spec

IDENTITY = (1).to_bytes(32, "little")


def ed_mul(k: int, point: bytes) -> bytes:
    k %= L
    return IDENTITY if k == 0 else bindings.crypto_scalarmult_ed25519_noclamp(k.to_bytes(32, "little"), point)


def ed_base(k: int) -> bytes:
    k %= L
    return IDENTITY if k == 0 else bindings.crypto_scalarmult_ed25519_base_noclamp(k.to_bytes(32, "little"))


def ed_sum(*points: bytes) -> bytes:
    result = IDENTITY
    for point in points:
        result = bindings.crypto_core_ed25519_add(result, point)
    return result


def ed_neg(point: bytes) -> bytes:
    return bindings.crypto_core_ed25519_sub(IDENTITY, point)


def fs_scalars(label: str, data: bytes, count: int) -> list[int]:
    stream = RefStream(h(label, data))
    return [int.from_bytes(stream.read(64), "little") % L for _ in range(count)]


def ints(values: list[str]) -> list[int]:
    return [int.from_bytes(x(value), "little") for value in values]


def shuffle_verifies(context: bytes, inputs: list[bytes], outputs: list[bytes], key: bytes, proof: dict, hs: list[bytes],
                     chain_base: bytes) -> bool:
    """§12.4's verification, written from the spec."""
    cs, chain = [x(c) for c in proof["permutation_commitments"]], [x(c) for c in proof["chain"]]
    (c,), (s1, s2, s3, s4) = ints([proof["challenge"]]), ints(proof["responses"])
    s_hat, s_vec = ints(proof["chain_responses"]), ints(proof["vector_responses"])
    h1 = h("fair/shuffle-u", encode([context, inputs, outputs, key, cs]))
    u = fs_scalars("fair/shuffle-u", h1, len(inputs))
    product = 1
    for value in u:
        product = product * value % L
    t1 = ed_sum(ed_base(s1), ed_neg(ed_mul(c, ed_sum(*cs, *[ed_neg(g) for g in hs]))))
    t2 = ed_sum(ed_base(s2), ed_neg(ed_mul(c, chain[-1])), ed_mul(c * product, chain_base))
    t3 = ed_sum(ed_base(s3), *[ed_mul(s, g) for s, g in zip(s_vec, hs)], *[ed_neg(ed_mul(c * uj, cj)) for uj, cj in zip(u, cs)])
    t4 = ed_sum(*[ed_mul(s, y) for s, y in zip(s_vec, outputs)], *[ed_neg(ed_mul(s4 * uj, xj)) for uj, xj in zip(u, inputs)])
    t5 = ed_sum(ed_base(s4), ed_neg(ed_mul(c, key)))
    before = [chain_base, *chain[:-1]]
    t_hat = [ed_sum(ed_base(s_hat[i]), ed_mul(s_vec[i], before[i]), ed_neg(ed_mul(c, chain[i]))) for i in range(len(inputs))]
    return fs_scalars("fair/shuffle-c", encode([h1, chain, [t1, t2, t3, t4, t5], t_hat]), 1)[0] == c


def lock_verifies(context: bytes, key: bytes, commitments: list[bytes], inputs: list[bytes], outputs: list[bytes], proof: dict) -> bool:
    """§12.3's verification with ``g_i = D``, ``h_i = K_i``, ``a_i`` the input, ``b_i`` the output, from the spec."""
    (c,), responses = ints([proof["challenge"]]), ints(proof["responses"])
    t = [ed_sum(ed_mul(s, key), ed_neg(ed_mul(c, k))) for s, k in zip(responses, commitments)]
    v = [ed_sum(ed_mul(s, a), ed_neg(ed_mul(c, b))) for s, a, b in zip(responses, inputs, outputs)]
    m = len(inputs)
    return fs_scalars("fair/equal-logs", encode([context, [key] * m, commitments, inputs, outputs, t + v]), 1)[0] == c


def test_deck_proofs_follow_the_spec():
    v = load("deck_proofs.json")
    table, game, name = x(v["table"]), v["game"], v["name"]
    label = h("fair/deck", encode([table, game, name]))
    m = len(v["cards"])
    assert v["base"] == ed_base(1).hex()
    chain_base = bindings.crypto_core_ed25519_from_uniform(h("fair/proof-generator", encode(["chain"])))
    hs = [bindings.crypto_core_ed25519_from_uniform(h("fair/proof-generator", encode(["vector", i]))) for i in range(m)]
    assert (v["chain_base"], v["generators"]) == (chain_base.hex(), [g.hex() for g in hs])
    numbered = [(card, v["cards"][:i].count(card)) for i, card in enumerate(v["cards"])]
    points = [bindings.crypto_core_ed25519_from_uniform(h("fair/card", encode([label, c, n]))) for c, n in numbered]
    assert v["card_points"] == [p.hex() for p in points]
    commitments, position_keys = {}, {}
    for entry in v["commitments"]:
        seat = entry["seat"]
        deck_key = RefStream(derive(table, game, seat, seed_of(seat), "deck/key", name)).scalar()
        positions = RefStream(derive(table, game, seat, seed_of(seat), "deck/positions", name))
        position_keys[seat] = [int.from_bytes(positions.scalar(), "little") for _ in range(m)]
        assert entry["deck_key"] == ed_base(int.from_bytes(deck_key, "little")).hex()
        assert entry["position_keys"] == [ed_base(k).hex() for k in position_keys[seat]]
        commitments[seat] = (x(entry["deck_key"]), [x(k) for k in entry["position_keys"]])
    entries = points
    for stage in v["stages"]:
        index, kind, seat = stage["index"], stage["kind"], stage["seat"]
        key, keys = commitments[seat]
        outputs = [x(e) for e in stage["entries"]]

        def nonces(part: str, inputs: list[bytes], count: int, seat=seat, index=index) -> list[int]:
            proof_key = derive(table, game, seat, seed_of(seat), "deck/proof", name, index, part)
            stream, values = RefStream(h("fair/proof-nonce", encode([proof_key, inputs]))), []
            while len(values) < count:
                value = int.from_bytes(stream.read(64), "little") % L
                values += [value] if value else []
            return values

        if kind != "lock":
            permutation = RefStream(derive(table, game, seat, seed_of(seat), "deck/permutation", name)).permutation(m)
            r = nonces("shuffle", entries, m)  # c_j = r_j·G + H_{q[j]}: input p[i] goes to output i
            commitments_of_inputs = stage["shuffle_proof"]["permutation_commitments"]
            assert all(commitments_of_inputs[permutation[i]] == ed_sum(ed_base(r[permutation[i]]), hs[i]).hex() for i in range(m))
            context = h("fair/proof-context", encode([label, index, kind, seat, "shuffle"]))
            assert stage["shuffle_context"] == context.hex()
            shuffled = [x(e) for e in stage["shuffled"]]
            assert shuffle_verifies(context, entries, shuffled, key, stage["shuffle_proof"], hs, chain_base)
            other = dict(stage["shuffle_proof"], vector_responses=stage["shuffle_proof"]["vector_responses"][::-1])
            assert not shuffle_verifies(context, entries, shuffled, key, other, hs, chain_base)
            entries = shuffled
        if kind != "shuffle":
            context = h("fair/proof-context", encode([label, index, kind, seat, "lock"]))
            assert stage["lock_context"] == context.hex()
            assert lock_verifies(context, key, keys, entries, outputs, stage["lock_proof"])
            deck_key = int.from_bytes(RefStream(derive(table, game, seat, seed_of(seat), "deck/key", name)).scalar(), "little")
            c = ints([stage["lock_proof"]["challenge"]])[0]
            factors = [k * pow(deck_key, -1, L) % L for k in position_keys[seat]]
            responses = [(w + c * f) % L for w, f in zip(nonces("lock", entries, m), factors)]
            assert ints(stage["lock_proof"]["responses"]) == responses
            assert not lock_verifies(context, key, keys, entries, outputs[::-1], stage["lock_proof"])
        entries = outputs
    # The same seeds and deck as mental_deck.json: every position opens to the card it opens to there.
    expected = load("mental_deck.json")["public"]["final_cards"]
    for position, entry in enumerate(entries):
        total = 1
        for keys_of_seat in position_keys.values():
            total = total * keys_of_seat[position] % L
        assert list(numbered[points.index(ed_mul(pow(total, -1, L), entry))]) == expected[position]


def test_proved_stage_bodies_follow_the_spec():
    """Each version 3 stage body holds §12.8's fields, with deck_proofs.json's values (which the
    reference above checks) under them, scalars as 32 bytes little-endian."""
    proofs = load("deck_proofs.json")
    v = load("proved_stage.json")
    commitments = {entry["seat"]: entry for entry in proofs["commitments"]}
    for stage, values in zip(v["stages"], proofs["stages"], strict=True):
        body = codec.decode(x(stage["body"]))
        kind, seat = stage["kind"], stage["seat"]
        expected = {"deck", "entries", "stage"} | ({"deck-key"} if kind != "lock" else set())
        expected |= {"position-keys", "lock"} if kind != "shuffle" else set()
        expected |= {"shuffled"} if kind == "shuffle-lock" else set()
        expected |= {"shuffle"} if kind != "lock" else set()
        assert set(body) == expected == set(stage["fields"])
        assert (body["deck"], body["stage"], [e.hex() for e in body["entries"]]) == (v["name"], stage["index"], values["entries"])
        if "deck-key" in body:
            assert body["deck-key"].hex() == commitments[seat]["deck_key"]
        if "position-keys" in body:
            assert [k.hex() for k in body["position-keys"]] == commitments[seat]["position_keys"]
            assert body["lock"] == {"challenge": x(values["lock_proof"]["challenge"]), "responses": tuple(x(s) for s in values["lock_proof"]["responses"])}
        if "shuffle" in body:
            proof = values["shuffle_proof"]
            assert body["shuffle"] == {
                "chain": tuple(x(p) for p in proof["chain"]), "chain-responses": tuple(x(s) for s in proof["chain_responses"]),
                "challenge": x(proof["challenge"]), "permutation": tuple(x(p) for p in proof["permutation_commitments"]),
                "responses": tuple(x(s) for s in proof["responses"]), "vector-responses": tuple(x(s) for s in proof["vector_responses"]),
            }
            if kind == "shuffle-lock":
                assert [e.hex() for e in body["shuffled"]] == values["shuffled"]
