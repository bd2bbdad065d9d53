// A complete server-to-client WebSocket text frame, built once per message and written as-is to
// every subscriber, so fan-out does no per-socket framing or encoding.

const FIN_TEXT = 0x81

export function encodeTextFrame(payload: Buffer): Buffer {
  const length = payload.length
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10
  const frame = Buffer.allocUnsafe(headerLength + length)
  frame[0] = FIN_TEXT
  if (length < 126) {
    frame[1] = length
  } else if (length < 65_536) {
    frame[1] = 126
    frame.writeUInt16BE(length, 2)
  } else {
    frame[1] = 127
    frame.writeBigUInt64BE(BigInt(length), 2)
  }
  payload.copy(frame, headerLength)
  return frame
}
