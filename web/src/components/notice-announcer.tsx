import { useEffect, useEffectEvent } from 'react'
import { useTranslation } from '../lib/i18n'
import { noticeOf, type UserNotice, type UserType } from '@tradegate/shared'
import { callApi } from '../lib/http'
import { liveClient } from '../lib/live/socket-client'
import { addNotice, clearNotices, isMuted } from '../lib/notices'
import { noticeText } from '../lib/notice-text'
import { RESYNC_SPACING_MS, spaced } from '../lib/resync'
import { serverClock } from '../lib/server-clock'
import { useSession } from '../lib/session'
import { showToast } from '../lib/toast'
import { useFormatters } from '../lib/use-formatters'

// The one path by which the user hears of a change to their money or positions they did not ask for
// at that moment: a resting order filled, an exit triggered, a liquidation, a settlement, a deposit,
// a withdrawal reviewed. Live, from the event the per-user frames carry; after a gap in the socket,
// from the userNotices call, marked as missed. Each event once, whichever way it came first.

/** The per-user streams that carry events. */
const CARRIERS: readonly UserType[] = ['OWNCOIN', 'POSITION', 'SETTLEMENT']

/** Long enough to read an instrument, a side, a size and a price. */
export const NOTICE_TOAST_MS = 6000

/** How far before the page started listening a gap's lookup reaches: a clock estimate's error, and the page's load. */
const FIRST_LOOKBACK_MS = 30_000

/** Asks for the events since `since` (exchange time), never failing: a later gap asks again. */
async function eventsSince(since: number): Promise<UserNotice[]> {
  try {
    return await callApi(
      'userNotices',
      { query: { since: String(Math.max(0, Math.floor(since))) } },
      { quiet: true },
    )
  } catch {
    return []
  }
}

export function NoticeAnnouncer() {
  const { t } = useTranslation()
  const formatters = useFormatters()
  const { token } = useSession()
  // reads the latest texts and formatters when an event comes, so a re-render never resubscribes
  const announce = useEffectEvent((notices: readonly UserNotice[], missed: boolean) => {
    const told = notices.filter(
      (notice) => addNotice(notice, missed ? 'missed' : 'live') && !isMuted(notice.kind),
    )
    const [only] = told
    if (!only) return
    const text = noticeText(t, only, formatters)
    // several at once (after a gap) would replace each other's toast: one says how many, the centre lists them
    if (told.length > 1) showToast(t('notices.missedMany', { count: told.length }), NOTICE_TOAST_MS)
    else showToast(missed ? t('notices.missedOne', { text }) : text, NOTICE_TOAST_MS)
  })
  useEffect(() => {
    if (!token) {
      clearNotices()
      return
    }
    const client = liveClient()
    // after a gap, what happened since the previous lookup (or since shortly before the page started
    // listening) is asked for; what was heard live is already in the centre and not told twice
    const startedOnDevice = Date.now()
    let listeningSince = serverClock.now(startedOnDevice) - FIRST_LOOKBACK_MS
    // what happened in that lookback before the page was listening is what its first figures already
    // show: it goes to the centre untold and read. What happened while the lookup was on its way is
    // news, told as it would have been live. The streams are asked for only once it has answered, so
    // nothing it lists can also come live, and then be taken for one already known.
    const known = (async () => {
      const asked = listeningSince
      let found = await eventsSince(asked)
      // The page's start is dated on the exchange's clock as the page knows it once the lookup has
      // answered: until the first market frame, a device's clock may be minutes off, and the answers'
      // dates have corrected it since. A device clock ahead made the look start after the page did: it
      // is made again from where it should have started.
      const startedAt = serverClock.now(startedOnDevice)
      if (asked > startedAt) {
        listeningSince = startedAt - FIRST_LOOKBACK_MS
        found = await eventsSince(listeningSince)
      }
      for (const notice of found) if (notice.at < startedAt) addNotice(notice, 'before')
      announce(
        found.filter((notice) => notice.at >= startedAt),
        false,
      )
    })()
    let stopped = false
    let carrying = false
    const stops: Array<() => void> = []
    void known.then(() => {
      if (stopped) return
      carrying = true
      for (const type of CARRIERS) {
        stops.push(
          client.subscribe({ operation: 'subscribe', type }, (frame) => {
            if (!('userId' in frame)) return
            const notice = noticeOf(frame.data)
            if (notice) announce([notice], false)
          }),
        )
      }
    })
    // a resync comes once the streams asked for take effect: the first after these are asked for
    // finds what happened since the first lookup, which reached neither, and tells it as news; a
    // later one follows a gap in the socket, and tells what the user missed
    let resyncsCarried = 0
    stops.push(
      client.onResync(
        spaced(() => {
          const since = listeningSince
          const missed = carrying && resyncsCarried++ > 0
          listeningSince = serverClock.now()
          void known.then(() => eventsSince(since)).then((found) => announce(found, missed))
        }, RESYNC_SPACING_MS),
      ),
    )
    return () => {
      stopped = true
      for (const stop of stops) stop()
    }
  }, [token])
  return null
}
