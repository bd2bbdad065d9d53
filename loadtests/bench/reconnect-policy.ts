/**
 * How a client waits before each reconnect attempt, for the reconnect storm: the web client's old
 * fixed interval (every socket waits the same time, so a dropped fleet comes back at one moment),
 * and the web client's own back-off (`Backoff` from shared/src/reconnect.ts: full jitter from a
 * first window of 1 s doubling to 30 s, with its floors after refused attempts), one per socket as
 * each browser tab keeps its own.
 */
import { Backoff, LIMITS, RECONNECT, WS_CLOSE } from '@tradegate/shared'

/** One socket's waits: asked after each close or failed attempt, with how long the socket was open. */
export interface SocketBackoff {
  next(openForMs: number, closeCode: number | undefined): number
}

export interface StormPolicy {
  name: string
  /** A fresh back-off for one socket, drawing its jitter from `random`. */
  forSocket(random: () => number): SocketBackoff
}

export function fixedInterval(ms: number = LIMITS.socketReconnectMs): StormPolicy {
  return { name: `fixed ${ms} ms`, forSocket: () => ({ next: () => ms }) }
}

export function webClientBackoff(policy = RECONNECT): StormPolicy {
  return {
    name: `web client back-off (full jitter, first ≤ ${policy.baseMs} ms, cap ${policy.capMs / 1000} s)`,
    forSocket: (random) => new Backoff(policy, random),
  }
}

/** The close a dropped fleet's browsers see when the gateway goes away under them. */
export const DROP_CLOSE_CODE = WS_CLOSE.goingAway
