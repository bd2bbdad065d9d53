import { describe, expect, it } from 'vitest'
import { maskedFrame, ServerFrameReader } from './lean-client'

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
