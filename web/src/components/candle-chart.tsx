import { useEffect, useRef } from 'react'
import type { CandlestickData, HistogramData, UTCTimestamp } from 'lightweight-charts'
import { showPrice, type KlineData, type KlineInterval } from '@tradegate/shared'
import { useLanguage } from '../lib/i18n'
import { useKline } from '../lib/live/stream-hooks'
import { useTimeZone } from '../lib/time-zone'
import { blockMultiTouch } from '../lib/theme'
import { useKlineHistory } from '../lib/api/get-kline'
import { createCandleChart, cssColour, type ChartParts } from './chart-setup'
import { drawIndicators, updateIndicators, useIndicatorChoice, type Close } from './chart-indicators'
import { IndicatorPicker } from './indicator-picker'

// Candles, volume and the indicators the user picked, with lightweight-charts: history from the kline
// call, then the live KLINE candle. Prices become numbers only here, for drawing; nothing is computed
// from them but the indicators, which are drawn only.

interface Drawn extends ChartParts {
  closes: Close[]
}

const secondsOf = (kline: KlineData) => Math.floor(kline.time / 1000) as UTCTimestamp

function toCandle(kline: KlineData): CandlestickData<UTCTimestamp> {
  const [open, high, low, close] = [kline.open, kline.high, kline.low, kline.close].map(Number)
  return { time: secondsOf(kline), open: open!, high: high!, low: low!, close: close! }
}

function toVolume(kline: KlineData, up: string, down: string): HistogramData<UTCTimestamp> {
  const rising = Number(kline.close) >= Number(kline.open)
  return { time: secondsOf(kline), value: Number(kline.vol), color: `${rising ? up : down}80` }
}

/** Decimal places the product's price format uses at this price, so the axis reads like the ticker. */
function decimalsAt(price: string): number {
  return showPrice(price).split('.')[1]?.length ?? 2
}

/** Exposes what is drawn as data attributes, so a test (or a curious developer) can read it. */
function markDrawn(element: HTMLElement | null, closes: readonly Close[], close: string): void {
  if (!element) return
  element.dataset.candles = String(closes.length)
  element.dataset.lastTime = String((closes.at(-1)?.time ?? 0) * 1000)
  element.dataset.lastClose = close
}

export default function CandleChart({ symbol, interval }: { symbol: string; interval: KlineInterval }) {
  const container = useRef<HTMLDivElement>(null)
  const drawn = useRef<Drawn | null>(null)
  const history = useKlineHistory(symbol, interval)
  const live = useKline(symbol, interval)
  const [choice, toggle] = useIndicatorChoice()
  const up = cssColour('--up', '#0ecb81')
  const down = cssColour('--down', '#f6465d')
  const timeZone = useTimeZone().zoneId
  const locale = useLanguage() || 'en'

  useEffect(() => {
    const element = container.current
    if (!element) return
    const parts = createCandleChart(element, { up, down, timeZone, locale })
    drawn.current = { ...parts, closes: [] }
    const unblockPinch = blockMultiTouch(element)
    return () => {
      unblockPinch()
      drawn.current = null
      parts.chart.remove()
    }
  }, [up, down, timeZone, locale])

  useEffect(() => {
    const current = drawn.current
    const rows = history.data
    if (!current || !rows) return
    const sorted = [...rows].sort((left, right) => left.time - right.time)
    const last = sorted.at(-1)
    const decimals = last ? decimalsAt(last.close) : 2
    current.candles.applyOptions({
      priceFormat: { type: 'price', precision: decimals, minMove: 10 ** -decimals },
    })
    current.candles.setData(sorted.map(toCandle))
    current.volume.setData(sorted.map((kline) => toVolume(kline, up, down)))
    current.closes = sorted.map((kline) => ({ time: secondsOf(kline), value: Number(kline.close) }))
    current.chart.timeScale().scrollToRealTime()
    markDrawn(container.current, current.closes, last?.close ?? '')
  }, [history.data, up, down])

  useEffect(() => {
    if (drawn.current) drawIndicators(drawn.current, drawn.current.closes, choice)
  }, [choice, history.data, up, down, timeZone, locale])

  useEffect(() => {
    const current = drawn.current
    const lastTime = current?.closes.at(-1)?.time ?? 0
    // a live candle older than the last drawn one (a late frame) would be refused by the chart
    if (!current || !live || lastTime === 0 || secondsOf(live) < lastTime) return
    current.candles.update(toCandle(live))
    current.volume.update(toVolume(live, up, down))
    const close = { time: secondsOf(live), value: Number(live.close) }
    if (close.time > lastTime) current.closes.push(close)
    else current.closes[current.closes.length - 1] = close
    updateIndicators(current, current.closes, choice)
    markDrawn(container.current, current.closes, live.close)
  }, [live, up, down, choice])

  return (
    <div className="candle-chart-box">
      <IndicatorPicker choice={choice} onToggle={toggle} />
      <div
        ref={container}
        className="candle-chart"
        data-testid="candle-chart"
        data-symbol={symbol}
        data-interval={interval}
        data-indicators={Object.keys(choice)
          .filter((key) => choice[key as keyof typeof choice])
          .join(' ')}
        aria-busy={history.data === undefined}
      />
    </div>
  )
}
