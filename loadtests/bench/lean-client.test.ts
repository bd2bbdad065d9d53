import { describe, expect, it } from 'vitest'
import { extractPublishTs, listFrameTest, maskedFrame, ServerFrameReader } from './lean-client'
import { summarizeHistogram } from './window-accounting'

describe('extractPublishTs', () => {
  it.each([
    [
      'ts last',
      '{"type":"DETAIL","symbol":"btcusdt","data":{"close":"1"},"ts":1700000000123}',
      1700000000123,
    ],
    ['spaces around', '{"type":"TRADE","data":{},"ts": 1700000000123 }\n', 1700000000123],
    ['fractional ms', '{"type":"KLINE","data":{},"ts":1700000000123.25}', 1700000000123.25],
    ['nested ts after the top-level one', '{"ts":5,"type":"TRADE","data":{"ts":9}}', 5],
    ['nested ts only', '{"type":"TRADE","data":{"ts":9}}', undefined],
    ['no ts', '{"type":"HEARTBEAT"}', undefined],
    ['not json', 'garbage "ts":', undefined],
    [
      'inside a socket.io event',
      '42["message",{"type":"DETAIL","data":{},"ts":1700000000123}]',
      1700000000123,
    ],
    ['socket.io event, nested ts only', '42["message",{"type":"TRADE","data":{"ts":9}}]', undefined],
  ])('%s', (_name, frame, expected) => {
    expect(extractPublishTs(Buffer.from(frame))).toBe(expected)
  })
})

describe('summarizeHistogram', () => {
  it('reports percentiles as the smallest millisecond covering the rank', () => {
    const histogram = new Uint32Array(1000)
    histogram[1] = 900
    histogram[10] = 90
    histogram[200] = 9
    histogram[900] = 1
    expect(summarizeHistogram(histogram)).toEqual({ samples: 1000, p50: 1, p99: 10, p999: 200, max: 900 })
  })

  it('reports no percentiles without samples', () => {
    const summary = summarizeHistogram(new Uint32Array(10))
    expect(summary.samples).toBe(0)
    expect(summary.p99).toBeNaN()
  })
})

describe('ServerFrameReader', () => {
  const serverFrame = (opcode: number, text: string): Buffer => {
    const payload = Buffer.from(text)
    const header =
      payload.length < 126
        ? Buffer.from([0x80 | opcode, payload.length])
        : Buffer.from([0x80 | opcode, 126, payload.length >> 8, payload.length & 0xff])
    return Buffer.concat([header, payload])
  }

  it('hands out each text frame once, however the stream is cut, and answers pings', () => {
    const long = `{"ts":1,"pad":"${'x'.repeat(300)}"}`
    const stream = Buffer.concat([serverFrame(1, '{"a":1}'), serverFrame(9, 'p'), serverFrame(1, long)])
    for (let cut = 1; cut < stream.length; cut += 7) {
      const texts: string[] = []
      const pings: string[] = []
      const reader = new ServerFrameReader(
        (payload) => texts.push(payload.toString()),
        (payload) => pings.push(payload.toString()),
      )
      reader.push(stream.subarray(0, cut))
      reader.push(stream.subarray(cut))
      expect(texts).toEqual(['{"a":1}', long])
      expect(pings).toEqual(['p'])
    }
  })
})

describe('maskedFrame', () => {
  it('masks the payload so that unmasking with the key gives it back', () => {
    const frame = maskedFrame(1, Buffer.from('{"operation":"subscribe"}'))
    expect(frame[0]).toBe(0x81)
    expect(frame[1]! & 0x80).toBe(0x80)
    const length = frame[1]! & 0x7f
    const mask = frame.subarray(2, 6)
    const unmasked = Buffer.from(frame.subarray(6, 6 + length).map((byte, i) => byte ^ mask[i & 3]!))
    expect(unmasked.toString()).toBe('{"operation":"subscribe"}')
  })
})

describe('listFrameTest', () => {
  const isList = listFrameTest('btcusdt')
  it("tells the market list's DETAIL frames from the traded symbol's and from other types", () => {
    expect(isList(Buffer.from('{"type":"DETAIL","symbol":"ethusdt","data":{},"ts":1}'), 0)).toBe(true)
    expect(isList(Buffer.from('{"type":"DETAIL","symbol":"btcusdt","data":{},"ts":1}'), 0)).toBe(false)
    expect(isList(Buffer.from('{"type":"DETAIL","symbol":"btcusdtx","data":{},"ts":1}'), 0)).toBe(true)
    expect(isList(Buffer.from('{"type":"TRADE","symbol":"ethusdt","data":{},"ts":1}'), 0)).toBe(false)
    expect(isList(Buffer.from('42["message",{"type":"DETAIL","symbol":"ethusdt","ts":1}]'), 13)).toBe(true)
  })
})
