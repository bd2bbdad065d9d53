import { describe, expect, it } from 'vitest'
import type { UpstreamFrame } from '@tradegate/shared'
import { busMessage, decodeBusMessage, encodeBusMessage, headerOf } from '../../src/live/bus-message'

// The bus's envelope: the header the feed writes once, and the bytes Redis carries it in.

describe('bus message', () => {
  it('gives each kind of frame the header its readers need, written from the frame itself', () => {
    const depth: UpstreamFrame = {
      type: 'DEPTH',
      symbol: 'btcusdt',
      data: { snapshot: false, seq: 42, bids: [], asks: [] },
      ts: 1000,
    }
    expect(headerOf('DEPTH:btcusdt', depth)).toEqual({
      topic: 'DEPTH:btcusdt',
      type: 'DEPTH',
      ts: 1000,
      seq: 42,
      book: false,
    })
    const kline = {
      type: 'KLINE',
      symbol: 'btcusdt',
      interval: '1min',
      data: { time: 60_000, open: '1', high: '1', low: '1', close: '1', vol: '0' },
      ts: 61_000,
    } as const
    expect(headerOf('KLINE:btcusdt:1min', kline)).toMatchObject({ type: 'KLINE', candle: 60_000 })
    const position = { type: 'POSITION', userId: '7', data: {}, ts: 5 } as const
    expect(headerOf('USER:7', position)).toEqual({ topic: 'USER:7', type: 'POSITION', ts: 5, user: '7' })
  })

  it('reads back from Redis bytes the header and the frame byte for byte, whatever the frame holds', () => {
    const frame = { type: 'POSITION', userId: '7', data: { note: '"|{}\n\u4e2d\u6587' }, ts: 5 } as const
    const message = busMessage('USER:7', frame)
    // behind an origin, as on the wire; encoded from the frame's text, then again from its bytes once a
    // socket has read them: the same text either way
    const wire = encodeBusMessage(message, 'abc|')
    expect(encodeBusMessage(message, 'abc|')).toBe(wire)
    void message.frame
    expect(encodeBusMessage(message, 'abc|')).toBe(wire)
    expect(encodeBusMessage(message)).toBe(wire.slice(4))
    // Redis hands it back as bytes
    const bytes = Buffer.from(wire)
    const decoded = decodeBusMessage(bytes, 4)
    expect(decoded?.header).toEqual(message.header)
    expect(decoded?.frame.equals(Buffer.from(JSON.stringify(frame)))).toBe(true)
    // the frame is its own copy, not a view of the buffer it came in
    bytes.fill(0)
    expect(JSON.parse(decoded!.frame.toString())).toEqual(frame)
  })

  it('serialises a frame when its bytes are first read, once, so frames no socket reads cost nothing', () => {
    let serialised = 0
    const data = { toJSON: () => (serialised++, { side: 'buy' }) } as unknown as Record<string, unknown>
    const message = busMessage('USER:7', { type: 'POSITION', userId: '7', data, ts: 5 } as UpstreamFrame)
    expect(message.header).toMatchObject({ type: 'POSITION', user: '7' })
    expect(serialised).toBe(0)
    const bytes = message.frame
    expect(JSON.parse(bytes.toString())).toEqual({
      type: 'POSITION',
      userId: '7',
      data: { side: 'buy' },
      ts: 5,
    })
    expect(message.frame).toBe(bytes)
    expect(serialised).toBe(1)
  })

  it('encodes a frame for Redis without keeping its bytes on the message, which may outlive the send', () => {
    let serialised = 0
    const data = { toJSON: () => (serialised++, { side: 'buy' }) } as unknown as Record<string, unknown>
    const message = busMessage('USER:7', { type: 'POSITION', userId: '7', data, ts: 5 } as UpstreamFrame)
    encodeBusMessage(message)
    encodeBusMessage(message)
    // each encoding serialised the frame for itself: nothing was kept for the next reader
    expect(serialised).toBe(2)
    const bytes = message.frame
    expect(serialised).toBe(3)
    // once a socket's read made the bytes, the bus uses them
    encodeBusMessage(message)
    expect(serialised).toBe(3)
    expect(message.frame).toBe(bytes)
  })

  it("reads an earlier build's messages, whose header's length led in two bytes", () => {
    const frame = { type: 'TRADE', symbol: 'btcusdt', data: [], ts: 7 } as unknown as UpstreamFrame
    const message = busMessage('DETAIL:btcusdt', frame)
    const header = Buffer.from(JSON.stringify(message.header))
    const length = Buffer.alloc(2)
    length.writeUInt16BE(header.length)
    const legacy = Buffer.concat([Buffer.from('abc|'), length, header, Buffer.from(JSON.stringify(frame))])
    const decoded = decodeBusMessage(legacy, 4)
    expect(decoded?.header).toEqual(message.header)
    expect(decoded?.frame.toString()).toBe(JSON.stringify(frame))
    // its length past the end, or its header cut short: not a message
    expect(decodeBusMessage(Buffer.concat([Buffer.from([0, 200]), header]))).toBeNull()
    expect(decodeBusMessage(Buffer.from([0]))).toBeNull()
  })

  it('refuses bytes no bus wrote', () => {
    expect(decodeBusMessage(Buffer.from('x'))).toBeNull()
    expect(decodeBusMessage(Buffer.from('{"topic":"DETAIL:btcusdt","type":"DETAIL","ts":1}'))).toBeNull()
    expect(decodeBusMessage(Buffer.from('{x}\nframe'))).toBeNull()
    expect(decodeBusMessage(Buffer.from('{"type":"DETAIL","ts":1}\n{}'))).toBeNull()
    expect(
      decodeBusMessage(Buffer.from('{"topic":"DETAIL:btcusdt","type":"DETAIL","ts":"1"}\n{}')),
    ).toBeNull()
  })
})
