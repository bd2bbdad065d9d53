import { describe, expect, it } from 'vitest'
import {
  readSocketIoPacket,
  SOCKET_IO_EVENT_OFFSET,
  socketIoEvent,
  socketIoWebSocketUrl,
} from './socketio-framing'

describe("Socket.IO's packets over a plain WebSocket", () => {
  it.each([
    [
      '0{"sid":"a","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}',
      { kind: 'open' },
    ],
    ['2', { kind: 'ping' }],
    ['40{"sid":"b"}', { kind: 'connected' }],
    ['42["message",{"type":"TRADE","ts":1}]', { kind: 'event', offset: SOCKET_IO_EVENT_OFFSET }],
    ['42["other",{}]', { kind: 'other' }],
    ['41', { kind: 'closed' }],
    ['44{"message":"refused"}', { kind: 'closed' }],
    ['1', { kind: 'closed' }],
    ['6', { kind: 'other' }],
  ])('reads %s', (text, packet) => {
    expect(readSocketIoPacket(Buffer.from(text))).toEqual(packet)
  })

  it('puts the event data right after the offset it reports', () => {
    const text = socketIoEvent({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })
    expect(text).toBe('42["message",{"operation":"subscribe","type":"DETAIL","symbol":"btcusdt"}]')
    expect(text.slice(SOCKET_IO_EVENT_OFFSET, SOCKET_IO_EVENT_OFFSET + 1)).toBe('{')
  })

  it('opens the engine.io WebSocket transport directly', () => {
    expect(socketIoWebSocketUrl('http://127.0.0.1:4000').href).toBe(
      'ws://127.0.0.1:4000/socket.io/?EIO=4&transport=websocket',
    )
  })
})
