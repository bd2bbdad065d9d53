import type { FastifyBaseLogger } from 'fastify'
import type { SessionRegistry } from '../upstream/session-registry'
import { tokenKey, type UserResolver } from '../upstream/user-resolver'
import type { Bus } from './bus'
import type { Authentication, ClientSocket } from './client-socket'

// The sessions sockets hold. Ends come from the upstream floor's registry (a sign-out or password
// change on the REST path, a token-expired answer, a logout on the feed) and travel to the other
// instances as bus notices; each instance ends the private streams of every ended token it holds.
// While the bus is down, notices are missed: when it returns, the tokens of this instance's private
// sockets are asked about again, a few at a time.

/** User-info calls in flight at once while sockets' sessions are checked again after a bus outage. */
export const REVALIDATE_CONCURRENCY = 4

export interface SessionAuthOptions {
  bus: Bus
  registry: SessionRegistry
  users: UserResolver
  log: FastifyBaseLogger
  /** takes one request from the address's rate-limit budget; false once it is spent */
  takeFromBudget(address: string): Promise<boolean>
}

/**
 * Socket auths and the sessions they start: an ended session's token is refused, every auth draws
 * on the address's request budget, and an ending session reaches exactly its own sockets.
 */
export class SessionAuth {
  /** token key -> the sockets signed in with it on this instance */
  private readonly bySession = new Map<string, Set<ClientSocket>>()
  /** token key -> the token, while sockets hold it: what a check after a bus outage asks about */
  private readonly tokens = new Map<string, string>()
  private revalidating: Promise<void> | null = null

  constructor(private readonly options: SessionAuthOptions) {
    const { bus, registry } = options
    registry.onAnnounce((notice) => bus.announce(notice))
    bus.onNotice((notice) => registry.receive(notice))
    registry.onEnded((keys) => keys.forEach((key) => this.endSockets(key)))
  }

  async authenticate(token: string, address: string): Promise<Authentication> {
    const { registry, users } = this.options
    const key = tokenKey(token)
    if (await registry.isEnded(key)) return { refused: 'sessionEnded' }
    // each auth costs the upstream a user-info call, so it counts like a request
    if (!(await this.options.takeFromBudget(address))) return { refused: 'tooManyRequests' }
    const resolution = await users.resolve(token, key)
    if ('error' in resolution) return { refused: resolution.error }
    // the session may have ended while its user-info answer was on its way
    if (registry.endedHere(key)) return { refused: 'sessionEnded' }
    this.tokens.set(key, token)
    return { userId: resolution.userId, session: key }
  }

  /** A socket's session changed from `previous` to its current one. */
  moved(client: ClientSocket, previous: string | null): void {
    if (previous) this.remove(previous, client)
    if (!client.session) return
    let clients = this.bySession.get(client.session)
    if (!clients) this.bySession.set(client.session, (clients = new Set()))
    clients.add(client)
  }

  /** A socket closed. */
  left(client: ClientSocket): void {
    if (client.session) this.remove(client.session, client)
  }

  /**
   * The bus is back after an outage: ends it may have missed are found by asking the upstream about
   * every token a socket here holds, REVALIDATE_CONCURRENCY at a time. A token it no longer accepts
   * ends every session of its user, here and on the other instances.
   */
  revalidate(): Promise<void> {
    this.revalidating ??= this.checkHeldTokens().finally(() => (this.revalidating = null))
    return this.revalidating
  }

  private async checkHeldTokens(): Promise<void> {
    const { registry, users, log } = this.options
    for (const key of this.tokens.keys()) if (!this.bySession.has(key)) this.tokens.delete(key)
    const queue = [...this.tokens]
    let ended = 0
    const worker = async (): Promise<void> => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [key, token] = next
        if (!this.bySession.has(key) || registry.endedHere(key)) continue
        // the sockets know their user even if the registry has let the token go
        const holder = this.bySession.get(key)?.values().next().value
        const userId = holder?.userId ?? registry.userOf(key)
        const resolution = await users.revalidate(token, key)
        if ('userId' in resolution || resolution.error !== 'notAuthorised') continue
        ended++
        await registry.end('expired', { token, userId })
      }
    }
    const checked = queue.length
    await Promise.all(Array.from({ length: Math.min(REVALIDATE_CONCURRENCY, checked) }, worker))
    log.info({ event: 'sessions_revalidated', checked, ended }, 'socket sessions checked after a bus outage')
  }

  private endSockets(key: string): void {
    this.tokens.delete(key)
    const clients = this.bySession.get(key)
    if (!clients) return
    this.bySession.delete(key)
    for (const client of clients) client.endSession()
  }

  private remove(key: string, client: ClientSocket): void {
    const clients = this.bySession.get(key)
    if (!clients?.delete(client) || clients.size > 0) return
    this.bySession.delete(key)
    this.tokens.delete(key)
  }
}
