import { useEffect, useRef, type ReactNode } from 'react'
import { useLocation } from 'wouter'
import { AppNotices } from '../components/app-notices'
import { DesktopSidebar } from '../components/desktop-sidebar'
import { NoticeAnnouncer } from '../components/notice-announcer'
import { TabBar, showsTabBar } from '../components/tab-bar'
import { Toaster } from '../components/toaster'
import { useDescription } from '../lib/document-head'

/**
 * Every navigation scrolls smoothly back to the top. The first screen is left where the browser put
 * it: at the top on a new load, where it was on a reload, and without the synchronous layout a
 * scroll call forces while the first screen is still being built.
 */
function useScrollToTopOnNavigate(): void {
  const [location] = useLocation()
  const first = useRef(location)
  useEffect(() => {
    if (location === first.current) return
    first.current = ''
    window.scrollTo({ top: 0, behavior: 'smooth' })
  }, [location])
}

/** Mobile: content and the bottom tab bar. Desktop (from 1024 px): a sidebar beside the content. */
export function AppLayout({ children }: { children: ReactNode }) {
  const [location] = useLocation()
  useScrollToTopOnNavigate()
  useDescription()
  return (
    <div className={`app-shell${showsTabBar(location) ? ' with-tab-bar' : ''}`}>
      <DesktopSidebar />
      <main className="app-main">
        <AppNotices />
        {children}
      </main>
      <TabBar />
      <Toaster />
      <NoticeAnnouncer />
    </div>
  )
}
