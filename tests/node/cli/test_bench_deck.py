from fairtable.node.cli.bench import deck
from fairtable.node.cli.main import build_parser


def test_deck_bench_reports_consistent_counts():
    args = build_parser().parse_args(["bench", "deck", "--seats", "3", "--cards", "8", "--rounds", "1", "--json"])
    figures = deck.run(args)
    assert figures["shuffle_mults"] == (2 * 3 - 1) * 8 == figures["verify_mults"]
    assert [(s["kind"], s["seat"], s["mults"]) for s in figures["stages"]] == [
        ("shuffle", 0, 8), ("shuffle", 1, 8), ("shuffle-lock", 2, 8), ("lock", 0, 8), ("lock", 1, 8)
    ]
    assert figures["deal_mults"] == 8 and figures["reveal_mults"] == 1
    assert figures["edwards_goal"] == 0.45 and figures["ladder_goal"] == 1.2
    for key in ("edwards_ratio", "ladder_ratio", "edwards_mult_us", "libsodium_x25519_us", "openssl_x25519_us"):
        assert figures[key] > 0
    for key in ("edwards_ratio_spread", "ladder_ratio_spread", "ratio_spread"):
        low, high = figures[key]
        assert 0 < low <= high
    assert figures["checked_entries"] == (2 * 3 - 2) * 8  # every stage's input but the card points
    assert 0 < figures["edwards_floor_ratio"] and 0 < figures["ladder_floor_ratio"]


def test_deck_bench_reports_the_proof_layer_beside_the_unproven_shuffle():
    args = build_parser().parse_args(["bench", "deck", "--seats", "2", "--cards", "52", "--rounds", "1", "--json"])
    figures = deck.run(args)
    assert [(s["kind"], s["seat"]) for s in figures["proof_stages"]] == [("shuffle", 0), ("shuffle-lock", 1), ("lock", 0)]
    shuffle, shuffle_lock, lock = figures["proof_stages"]
    # §12.6: a shuffle proved with 5 multiplications per card (the stage's own included), verified with 6;
    # a lock with 3 and 4; a shuffle-lock is both.
    assert (shuffle["prove_mults_per_card"], lock["prove_mults_per_card"], shuffle_lock["prove_mults_per_card"]) == (5, 3, 8)
    assert round(shuffle["verify_mults_per_card"]) == 6 and lock["verify_mults_per_card"] == 4
    assert figures["proof_goal_ms"] == 150 and figures["proof_goal"] == 1.0
    # both figures are printed rounded (0.1 ms, 0.001): the ratio is of the unrounded time
    assert abs(figures["proof_ratio"] - figures["proof_cpu_ms_per_node"] / 150) <= 0.05 / 150 + 0.0005
    # the floor: seat 0 proves its shuffle (5m) and lock (3m) and verifies seat 1's shuffle-lock (6m + 4, then 4m);
    # fixed-base: its commitments (1 + m), seat 1's keys (m), its shuffle's 3m + 4, the shuffle-lock's m + 4
    work = figures["floor_work"]
    assert (work["mults"], work["base_mults"], work["points"]) == (8 * 52 + 10 * 52 + 4, (1 + 52) + 52 + (3 * 52 + 4) + (52 + 4), 52)
    price = figures["floor_prices_us"]
    floor_ms = sum(work[name] * price[name] for name in price) / 1e3
    assert abs(figures["floor_ms"] - floor_ms) <= 0.05 + 0.005 * floor_ms  # prices are printed to 0.01 µs
    assert abs(figures["ratio"] - figures["proof_cpu_ms_per_node"] / figures["floor_ms"]) <= 0.002 * figures["ratio"] + 0.0005
    assert figures["goal"] == 1.5 and figures["ratio_spread"][0] <= figures["ratio_spread"][1]
    timed = ("proof_cpu_ms_per_node", "proof_unproven_ms_per_node", "proof_overhead", "proof_primitives_cpu_ms_per_node",
             "proof_deck_prove_ms", "proof_deck_verify_ms")
    assert all(isinstance(figures[name], (int, float)) and figures[name] >= 0 for name in timed)  # figures, never judged here


def test_the_wired_walk_is_the_session_deck_at_either_version():
    """``walk_deck``: the same deck through the session code at versions 2 and 3 opens to the
    same cards (each node's work counted per seat)."""
    from fairtable.protocol.session import walk_deck

    work: dict[int, int] = {}

    def timed(seat, job):
        work[seat] = work.get(seat, 0) + 1
        return job()

    for version in (2, 3):
        work.clear()
        assert len(walk_deck(3, 6, version, timed)) == 6
        assert set(work) == {0, 1, 2}
