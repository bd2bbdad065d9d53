/**
 * The one tick source of every system under test: an upstream feed like the sandbox's. Every
 * socket presenting the feed token (the gateway's feed client, or a baseline server's) receives
 * every frame of the scenario, serialised once; a new one first gets every symbol's DEPTH snapshot,
 * and a DEPTH subscribe frame on it is answered with that symbol's snapshot (a resync).
 *
 * Over plain HTTP it answers `getCoinList` with the scenario's symbols (entries shaped like the
 * sandbox's), so a gateway that accepts subscriptions only for listed symbols accepts them all.
 *
 * It remembers the publish time and topic of each frame, so the harness can ask how many frames
 * of each topic were published inside a measurement window ({"cmd":"count","from":…,"to":…}).
 *
 * Child process: `node --import tsx baselines/tick-feed.ts --feed-token T [--scenario JSON]` prints
 * {"event":"listening","port":N,"pid":P}; its ticks start with the harness's start-ticks command.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { createServer, type Server } from 'node:http'
import { parseArgs } from 'node:util'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, WebSocket, type RawData } from 'ws'
import { CALLS, FEED_TOKEN_HEADER } from '@tradegate/shared'
import {
  announceListening,
  isMainModule,
  LISTEN_BACKLOG,
  loadtestsDir,
  runTicksOnCommand,
} from '../bench/child-process'
import {
  parseScenarioArg,
  scenarioTopics,
  startTickGenerator,
  symbolNames,
  type Scenario,
  type TickGenerator,
} from '../bench/scenario'

/** One entry of each list of the sandbox's getCoinList answer (btcusdt's), the template of every symbol's. */
const coinListEntry = JSON.parse(
  // from the package's folder, not this file's: the harness runs this module built into loadtests/build/
  readFileSync(path.join(loadtestsDir, 'baselines', 'fixtures', 'coin-list-entry.json'), 'utf8'),
) as Record<'coinList' | 'currencyList' | 'contractList' | 'optionList', Record<string, unknown>>

/** getCoinList's answer listing the scenario's symbols. */
export function coinListAnswer(scenario: Scenario): string {
  const lists = Object.fromEntries(
    Object.entries(coinListEntry).map(([list, template]) => [
      list,
      symbolNames(scenario.symbols).map((symbol, i) => {
        const coin = symbol.replace(/usdt$/, '')
        const entry: Record<string, unknown> = { ...template, symbol, coin }
        if ('showSymbol' in template) entry.showSymbol = `${coin.toUpperCase()}/USDT`
        if ('id' in template) entry.id = i + 1
        if ('sort' in template) entry.sort = i + 1
        return entry
      }),
    ]),
  )
  return JSON.stringify({ code: 200, msg: 'success', data: lists })
}

/** Publish times and topic indexes of the most recent frames, oldest overwritten first. */
export class PublishLog {
  private readonly times: Float64Array
  private readonly topics: Uint16Array
  private next = 0
  private size = 0

  constructor(capacity = 1 << 21) {
    this.times = new Float64Array(capacity)
    this.topics = new Uint16Array(capacity)
  }

  add(ts: number, topicIndex: number): void {
    this.times[this.next] = ts
    this.topics[this.next] = topicIndex
    this.next = (this.next + 1) % this.times.length
    this.size = Math.min(this.size + 1, this.times.length)
  }

  /**
   * Frames per topic index published in [from, to], both ends included. Publish times only grow,
   * so the walk goes back from the newest frame and stops at the first one older than `from`.
   */
  count(from: number, to: number, topicCount: number): number[] {
    const counts = new Array<number>(topicCount).fill(0)
    for (let seen = 0; seen < this.size; seen++) {
      const at = (this.next - 1 - seen + this.times.length) % this.times.length
      const ts = this.times[at]!
      if (ts < from) break
      if (ts <= to) counts[this.topics[at]!]! += 1
    }
    return counts
  }
}

export interface TickFeed {
  port: number
  url: string
  readonly feeds: number
  close(): Promise<void>
  /** Starts the scenario's ticks (once). */
  start(scale?: number): TickGenerator
  countPublished(from: number, to: number): Record<string, number>
}

/** The upstream's HTTP side as far as the gateway asks it: the coin list of the scenario's symbols. */
function coinListServer(scenario: Scenario): Server {
  const coinList = coinListAnswer(scenario)
  return createServer((request, response) => {
    const found = request.method === 'GET' && request.url?.split('?')[0] === CALLS.getCoinList.path
    response
      .writeHead(found ? 200 : 404, { 'content-type': 'application/json' })
      .end(found ? coinList : JSON.stringify({ code: 404, msg: 'notFound', data: null }))
  })
}

/** A feed client subscribing to a symbol's DEPTH gets that book's snapshot, as from the real upstream. */
function answerDepthSubscribe(socket: WebSocket, data: RawData, ticks: TickGenerator | undefined): void {
  try {
    const frame = JSON.parse(data.toString()) as { operation?: unknown; type?: unknown; symbol?: unknown }
    if (frame.operation !== 'subscribe' || frame.type !== 'DEPTH' || typeof frame.symbol !== 'string') return
    const snapshot = ticks?.depthSnapshot(frame.symbol)
    if (snapshot) socket.send(JSON.stringify(snapshot))
  } catch {
    // a feed client's other frames are not the benchmark's business
  }
}

export function startTickFeed(options: {
  scenario: Scenario
  feedToken: string
  port?: number
}): Promise<TickFeed> {
  const topics = scenarioTopics(options.scenario)
  const log = new PublishLog()
  const feeds = new Set<WebSocket>()
  let ticks: TickGenerator | undefined
  const http = coinListServer(options.scenario)
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false })
  const snapshotsFor = (socket: WebSocket): void => {
    for (const frame of ticks?.depthSnapshots() ?? []) socket.send(JSON.stringify(frame))
  }
  wss.on('connection', (socket, request) => {
    if (request.headers[FEED_TOKEN_HEADER] !== options.feedToken) {
      socket.close(1008, 'feed token required')
      return
    }
    feeds.add(socket)
    snapshotsFor(socket)
    socket.on('message', (data) => answerDepthSubscribe(socket, data, ticks))
    socket.on('close', () => feeds.delete(socket))
    socket.on('error', () => socket.terminate())
  })

  return new Promise((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port ?? 0, '127.0.0.1', LISTEN_BACKLOG, () => {
      http.off('error', reject)
      const { port } = http.address() as AddressInfo
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        get feeds() {
          return feeds.size
        },
        start(scale = 1) {
          if (ticks) return ticks
          ticks = startTickGenerator(
            options.scenario,
            (_topic, frame, topicIndex) => {
              log.add(frame.ts, topicIndex)
              const text = JSON.stringify(frame)
              for (const feed of feeds) if (feed.readyState === WebSocket.OPEN) feed.send(text)
            },
            { rateScale: scale },
          )
          for (const feed of feeds) snapshotsFor(feed)
          return ticks
        },
        countPublished(from, to) {
          const counts = log.count(from, to, topics.length)
          return Object.fromEntries(topics.map((entry, i) => [entry.topic, counts[i]!]))
        },
        close: () =>
          new Promise<void>((done) => {
            ticks?.stop()
            for (const socket of wss.clients) socket.terminate()
            wss.close()
            http.close(() => done())
          }),
      })
    })
  })
}

if (isMainModule(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      scenario: { type: 'string' },
      'feed-token': { type: 'string' },
    },
  })
  if (!values['feed-token']) throw new Error('--feed-token is required')
  const feed = await startTickFeed({
    scenario: parseScenarioArg(values.scenario),
    feedToken: values['feed-token'],
    port: Number(values.port ?? 0),
  })
  runTicksOnCommand(
    (scale) => feed.start(scale),
    ({ from, to }) => feed.countPublished(from, to),
    feed.close,
  )
  announceListening(feed.port)
}
