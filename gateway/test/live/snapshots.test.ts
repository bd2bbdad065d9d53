import { describe, expect, it } from 'vitest'
import type { DepthData } from '@tradegate/shared'
import { busMessage, type BusMessage } from '../../src/live/bus-message'
import { SnapshotMemory } from '../../src/live/snapshots'

// A bus follower's copy of a book, kept from the updates it receives: the cases Redis produces
// only by bad luck (an update that overtakes the stored book, a message lost on a reconnect).

const TOPIC = 'DEPTH:btcusdt'

function frame(seq: number, snapshot: boolean, bids: Array<[string, string]>): BusMessage {
  return busMessage(TOPIC, {
    type: 'DEPTH',
    symbol: 'btcusdt',
    data: { snapshot, seq, bids, asks: [] },
    ts: seq,
  })
}

/** Bytes that are no DEPTH frame, behind a header that numbers them `seq`. */
function junk(seq: number): BusMessage {
  return { header: { topic: TOPIC, type: 'DEPTH', ts: seq, seq }, frame: Buffer.from('{"type":"DEPTH"') }
}

function book(memory: SnapshotMemory): DepthData | null {
  const [message] = memory.get(TOPIC)
  return message ? (JSON.parse(message.frame.toString()) as { data: DepthData }).data : null
}

describe('a followed book', () => {
  it('applies updates in sequence on top of the snapshot it holds', () => {
    const memory = new SnapshotMemory()
    memory.store(TOPIC, '', frame(5, true, [['10', '1']]))
    expect(memory.follow(TOPIC, '', frame(6, false, [['11', '2']]))).toBe(true)
    expect(memory.follow(TOPIC, '', frame(6, false, [['12', '9']]))).toBe(true)
    expect(book(memory)).toEqual({
      snapshot: true,
      seq: 6,
      bids: [
        ['11', '2'],
        ['10', '1'],
      ],
      asks: [],
    })
  })

  it('drops the book on a gap and asks for the stored one, then catches up with what arrived meanwhile', () => {
    const memory = new SnapshotMemory()
    memory.store(TOPIC, '', frame(5, true, [['10', '1']]))
    expect(memory.follow(TOPIC, '', frame(8, false, [['13', '1']]))).toBe(false)
    expect(memory.get(TOPIC)).toEqual([])
    expect(memory.follow(TOPIC, '', frame(9, false, [['14', '1']]))).toBe(false)
    // the stored book read back from Redis is at 8: 9 is applied on top, 8 is already in it
    memory.load(
      TOPIC,
      '',
      frame(8, true, [
        ['13', '1'],
        ['10', '1'],
      ]),
    )
    expect(book(memory)).toEqual({
      snapshot: true,
      seq: 9,
      bids: [
        ['14', '1'],
        ['13', '1'],
        ['10', '1'],
      ],
      asks: [],
    })
    expect(memory.follow(TOPIC, '', frame(10, false, [['10', '0']]))).toBe(true)
    expect(book(memory)?.bids).toEqual([
      ['14', '1'],
      ['13', '1'],
    ])
  })

  it('stays without a book when the stored one is older than the updates it holds', () => {
    const memory = new SnapshotMemory()
    expect(memory.follow(TOPIC, '', frame(20, false, [['1', '1']]))).toBe(false)
    memory.load(TOPIC, '', frame(10, true, []))
    expect(memory.get(TOPIC)).toEqual([])
    // a snapshot on the stream replaces everything
    expect(memory.follow(TOPIC, '', frame(30, true, [['2', '1']]))).toBe(true)
    expect(book(memory)).toEqual({ snapshot: true, seq: 30, bids: [['2', '1']], asks: [] })
  })

  it('never lets a stored book replace a newer one it follows, and treats junk as a gap', () => {
    const memory = new SnapshotMemory()
    memory.follow(TOPIC, '', frame(40, true, [['3', '1']]))
    memory.load(TOPIC, '', frame(35, true, [['9', '9']]))
    expect(book(memory)?.seq).toBe(40)
    // the header says the book already holds it: its bytes are not even read
    expect(memory.follow(TOPIC, '', junk(40))).toBe(true)
    expect(book(memory)?.seq).toBe(40)
    expect(memory.follow(TOPIC, '', junk(41))).toBe(false)
    expect(memory.get(TOPIC)).toEqual([])
  })
})
