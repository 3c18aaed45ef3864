import random
from fairtable.games import referee, registry
from fairtable.games.bots import RandomBot
from tests.protocol.session.blind import BLIND
from fairtable.protocol.testing import SelfPlay
from fairtable.protocol.session.verify import verify
for seats in (2, 3, 6):
    p = referee.play(BLIND, "plain", {}, [RandomBot(random.Random(i)) for i in range(seats)], random.Random(1), lockstep=True)
    print(seats, p.result, len(p.events))
registry.register(BLIND)
t = SelfPlay.create("blind", "plain", {}, 3, b"blind")
f = t.play()
r = verify(f)
print(r.valid, r.violations, r.result, [e.kind for e in f.transcript.envelopes])
