import { describe, expect, it } from 'vitest'
import { socketIoEvent, socketIoWebSocketUrl } from './socketio-framing'

describe("Socket.IO's packets over a plain WebSocket", () => {
  it('sends a subscribe as a "message" event packet', () => {
    expect(socketIoEvent({ operation: 'subscribe', type: 'DETAIL', symbol: 'btcusdt' })).toBe(
      '42["message",{"operation":"subscribe","type":"DETAIL","symbol":"btcusdt"}]',
    )
  })

  it('opens the engine.io WebSocket transport directly', () => {
    expect(socketIoWebSocketUrl('http://127.0.0.1:4000').href).toBe(
      'ws://127.0.0.1:4000/socket.io/?EIO=4&transport=websocket',
    )
  })
})
