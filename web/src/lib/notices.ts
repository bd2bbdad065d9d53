import { useSyncExternalStore } from 'react'
import { NOTICE_KINDS, STORAGE_KEYS, type NoticeKind, type UserNotice } from '@tradegate/shared'
import { createStore } from './external-store'
import { readJson, writeJson } from './storage'

// The notification centre's state: every event of the user's money or positions this session heard
// of (shared/src/notices.ts), live or found after a gap, each once; which are read; which kinds the
// user muted. The one way an event is announced is `announce` (components/notice-announcer.tsx
// feeds it and raises the toast).

export interface HeardNotice extends UserNotice {
  /** found by the resync after the socket was away, not heard as it happened */
  missed: boolean
  read: boolean
}

export interface NoticeCentre {
  /** newest first */
  items: readonly HeardNotice[]
  unread: number
  muted: ReadonlySet<NoticeKind>
}

/** What the centre keeps: a session's worth, newest first. */
export const KEPT_NOTICES = 100

function readSession(): HeardNotice[] {
  try {
    const text = sessionStorage.getItem(STORAGE_KEYS.notices)
    const parsed: unknown = text ? JSON.parse(text) : []
    return Array.isArray(parsed) ? (parsed as HeardNotice[]) : []
  } catch {
    return []
  }
}

function writeSession(items: readonly HeardNotice[]): void {
  try {
    sessionStorage.setItem(STORAGE_KEYS.notices, JSON.stringify(items))
  } catch {
    // blocked or full storage: the list lives as long as the page
  }
}

function readMutes(): Set<NoticeKind> {
  const stored = readJson<unknown>(STORAGE_KEYS.noticeMutes)
  const kinds = Array.isArray(stored) ? stored : []
  return new Set(NOTICE_KINDS.filter((kind) => kinds.includes(kind)))
}

function centreOf(items: readonly HeardNotice[], muted: ReadonlySet<NoticeKind>): NoticeCentre {
  return { items, unread: items.filter((item) => !item.read).length, muted }
}

const store = createStore<NoticeCentre>(centreOf(readSession(), readMutes()))

function setItems(items: readonly HeardNotice[]): void {
  writeSession(items)
  store.set(centreOf(items, store.get().muted))
}

/**
 * How an event reached the centre: as it happened, found after a gap in the socket, or from before the
 * page was listening. An event from before is listed as read: the page's first figures already show
 * it and it is never read out, so the bell counts only what the user was told of.
 */
export type NoticeWay = 'live' | 'missed' | 'before'

/**
 * Adds an event to the centre; false when it is already there (the live frame and the resync's list
 * carry the same id), so the caller raises its toast only for a new one that is not muted.
 */
export function addNotice(notice: UserNotice, way: NoticeWay): boolean {
  const { items } = store.get()
  if (items.some((item) => item.id === notice.id)) return false
  const next = [{ ...notice, missed: way === 'missed', read: way === 'before' }, ...items]
  setItems([...next].sort((a, b) => b.at - a.at).slice(0, KEPT_NOTICES))
  return true
}

export function isMuted(kind: NoticeKind): boolean {
  return store.get().muted.has(kind)
}

export function markAllRead(): void {
  setItems(store.get().items.map((item) => (item.read ? item : { ...item, read: true })))
}

export function markRead(id: string): void {
  setItems(store.get().items.map((item) => (item.id === id && !item.read ? { ...item, read: true } : item)))
}

/** Mutes or unmutes the toast of one kind; remembered on this device. The centre still lists it. */
export function setMuted(kind: NoticeKind, muted: boolean): void {
  const next = new Set(store.get().muted)
  if (muted) next.add(kind)
  else next.delete(kind)
  writeJson(STORAGE_KEYS.noticeMutes, [...next])
  store.set(centreOf(store.get().items, next))
}

/** Forgets the list (a sign-out); the mutes are the device's and stay. */
export function clearNotices(): void {
  setItems([])
}

export function useNoticeCentre(): NoticeCentre {
  return useSyncExternalStore(store.subscribe, store.get, store.get)
}
