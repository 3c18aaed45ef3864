// A js-libp2p peer for the test suite: an implementation fairtable does not share a line of code with.
//
//   node peer.mjs --role relay|client [--listen MULTIADDR]... [--relay MULTIADDR]...
//                 [--security noise|plaintext] [--muxer yamux|mplex] [--capture FILE]
//
// A relay is a circuit relay v2 server (hop) that also answers identify, ping and AutoNAT; with
// --capture it appends every byte it reads after its own libp2p channels are decrypted (all it
// forwards) to FILE. A client listens on each --relay's circuit too (a reservation there).
// Either prints {"peer": ID, "addresses": [...]} once listening, then answers each JSON command
// read from stdin with one JSON line, {"failed": why} when the command could not be done:
//   {"do": "identify", "address": A}       -> {"peer", "agent", "protocols", "listen", "observed"}
//   {"do": "ping", "address": A}           -> {"seconds"}
//   {"do": "echo", "address": A, "count": N, "bytes": B}
//                                          -> {"relayed", "limited", "seconds": [...]}: N round trips of B bytes
//                                             on the echo protocol, which runs on limited (relayed) connections
//   {"do": "autonat", "address": A, "addrs": [...]}
//                                          -> {"status", "text", "addr"}: an AutoNAT v1 dial request for addrs
// and ends at the end of stdin. Times are seconds measured here: figures for a report.
import './polyfill.mjs'
import { createInterface } from 'node:readline'
import { appendFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { createLibp2p } from 'libp2p'
import { tcp } from '@libp2p/tcp'
import { noise } from '@chainsafe/libp2p-noise'
import { yamux } from '@chainsafe/libp2p-yamux'
import { mplex } from '@libp2p/mplex'
import { plaintext } from '@libp2p/plaintext'
import { identify } from '@libp2p/identify'
import { ping } from '@libp2p/ping'
import { autoNAT } from '@libp2p/autonat'
import { dcutr } from '@libp2p/dcutr'
import { circuitRelayServer, circuitRelayTransport } from '@libp2p/circuit-relay-v2'
import { multiaddr } from '@multiformats/multiaddr'
import { lpStream } from 'it-length-prefixed-stream'

const ECHO = '/fairtable-test/echo/1.0.0'
const AUTONAT = '/libp2p/autonat/1.0.0'
const LISTEN_SECONDS = 20

const { values: args } = parseArgs({
  options: {
    role: { type: 'string', default: 'client' },
    listen: { type: 'string', multiple: true, default: [] },
    relay: { type: 'string', multiple: true, default: [] },
    security: { type: 'string', default: 'noise' },
    muxer: { type: 'string', default: 'yamux' },
    capture: { type: 'string' }
  }
})

function capturing (factory, file) {
  // The muxer reads the connection's bytes once its security layer has decrypted them.
  return (components) => {
    const inner = factory(components)
    return {
      protocol: inner.protocol,
      createStreamMuxer (init) {
        const muxer = inner.createStreamMuxer(init)
        const sink = muxer.sink
        muxer.sink = async (source) => sink((async function * () {
          for await (const chunk of source) {
            appendFileSync(file, chunk.subarray())
            yield chunk
          }
        })())
        return muxer
      }
    }
  }
}

const muxer = args.muxer === 'mplex' ? mplex() : yamux()
const relay = args.role === 'relay'
const node = await createLibp2p({
  addresses: { listen: [...args.listen, ...args.relay.map((address) => `${address}/p2p-circuit`)] },
  transports: relay ? [tcp()] : [tcp(), circuitRelayTransport()],
  connectionEncrypters: [args.security === 'plaintext' ? plaintext() : noise()],
  streamMuxers: [args.capture ? capturing(muxer, args.capture) : muxer],
  services: {
    identify: identify(),
    ping: ping(),
    autonat: autoNAT(),
    ...(relay
      ? { relay: circuitRelayServer({ reservations: { maxReservations: 64, applyDefaultLimit: false } }) }
      : { dcutr: dcutr() })
  }
})

await node.handle(ECHO, ({ stream }) => { void stream.sink(stream.source) }, { runOnLimitedConnection: true })

const deadline = Date.now() + LISTEN_SECONDS * 1000
const circuits = () => node.getMultiaddrs().filter((address) => address.toString().includes('/p2p-circuit')).length
while (circuits() < args.relay.length && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 100))
}
if (circuits() < args.relay.length) {
  console.log(JSON.stringify({ error: `no reservation at ${args.relay.join(', ')} within ${LISTEN_SECONDS} s` }))
  process.exit(1)
}
console.log(JSON.stringify({ peer: node.peerId.toString(), addresses: node.getMultiaddrs().map(String) }))

function varint (value) {
  const bytes = []
  while (value > 127) { bytes.push((value & 127) | 128); value >>>= 7 }
  bytes.push(value)
  return bytes
}

function field (tag, bytes) {
  return [tag, ...varint(bytes.length), ...bytes]
}

function fields (bytes) {
  // Each (field number, value) of a protobuf message: varints as numbers, length-delimited ones as bytes.
  const found = []
  let at = 0
  const read = () => {
    let value = 0
    let shift = 0
    while (true) {
      const byte = bytes[at++]
      value += (byte & 127) * 2 ** shift
      shift += 7
      if (byte < 128) return value
    }
  }
  while (at < bytes.length) {
    const key = read()
    if ((key & 7) === 0) {
      found.push([key >>> 3, read()])
    } else {
      const length = read()
      found.push([key >>> 3, bytes.subarray(at, at + length)])
      at += length
    }
  }
  return found
}

function dialRequest (addrs) {
  // AutoNAT v1: Message{type: DIAL, dial: Dial{peer: PeerInfo{id, addrs}}}
  const peer = [...field(0x0a, node.peerId.toMultihash().bytes), ...addrs.flatMap((address) => field(0x12, multiaddr(address).bytes))]
  return Uint8Array.from([0x08, 0x00, ...field(0x12, field(0x0a, peer))])
}

async function stream (address, protocol) {
  const connection = await node.dial(multiaddr(address))
  return [connection, await connection.newStream(protocol, { runOnLimitedConnection: true })]
}

const commands = {
  async identify ({ address }) {
    const connection = await node.dial(multiaddr(address))
    const result = await node.services.identify.identify(connection)
    return {
      peer: result.peerId.toString(),
      agent: result.agentVersion,
      protocols: result.protocols,
      listen: result.listenAddrs.map(String),
      observed: result.observedAddr ? result.observedAddr.toString() : null
    }
  },
  async ping ({ address }) {
    const started = performance.now()
    await node.services.ping.ping(multiaddr(address))
    return { seconds: (performance.now() - started) / 1000 }
  },
  async echo ({ address, count, bytes }) {
    const [connection, opened] = await stream(address, ECHO)
    const framed = lpStream(opened)
    const seconds = []
    for (let round = 0; round < count; round++) {
      const sent = new Uint8Array(bytes).fill(round % 256)
      const started = performance.now()
      await framed.write(sent)
      const back = (await framed.read()).subarray()
      seconds.push((performance.now() - started) / 1000)
      if (back.length !== sent.length || back.some((byte, at) => byte !== sent[at])) throw new Error(`echo ${round} came back changed`)
    }
    await opened.close()
    return { relayed: connection.remoteAddr.toString().includes('/p2p-circuit'), limited: connection.limits != null, seconds }
  },
  async autonat ({ address, addrs }) {
    const [, opened] = await stream(address, AUTONAT)
    const framed = lpStream(opened)
    await framed.write(dialRequest(addrs))
    const answer = fields((await framed.read()).subarray())
    await opened.close()
    const response = answer.find(([number]) => number === 3)
    if (!response) throw new Error('the AutoNAT answer holds no dial response')
    const reply = Object.fromEntries(fields(response[1]))
    return {
      status: reply[1] ?? 0,
      text: reply[2] ? new TextDecoder().decode(reply[2]) : '',
      addr: reply[3] ? multiaddr(reply[3]).toString() : null
    }
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue
  const command = JSON.parse(line)
  let answer
  try {
    const run = commands[command.do]
    if (!run) throw new Error(`unknown command ${command.do}`)
    answer = await run(command)
  } catch (error) {
    answer = { failed: String(error?.message ?? error) }
  }
  console.log(JSON.stringify(answer))
}
await node.stop()
