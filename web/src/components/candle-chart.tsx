import { useEffect, useRef } from 'react'
import {
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  HistogramSeries,
  LineStyle,
  createChart,
  type CandlestickData,
  type HistogramData,
  type IChartApi,
  type ISeriesApi,
  type TickMarkType,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts'
import { formatPrice, type KlineData, type KlineInterval } from '@tradegate/shared'
import { useTranslation } from 'react-i18next'
import { localisePrice } from '../lib/intl'
import { useKline } from '../lib/live'
import { useSettings } from '../lib/settings'
import { useTimeZone } from '../lib/time-zone'
import { blockMultiTouch } from '../lib/theme'
import { useKlineHistory } from '../lib/api/get-kline'
import { crosshairTimeLabel, tickMarkLabel } from '../lib/time-labels'

// Candles and volume with lightweight-charts: history from the kline call, then the live KLINE candle.
// Prices become numbers only here, for drawing; nothing is computed from them.

interface Drawn {
  chart: IChartApi
  candles: ISeriesApi<'Candlestick'>
  volume: ISeriesApi<'Histogram'>
  lastTime: number
  count: number
}

function cssColour(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim()
  return value || fallback
}

function toCandle(kline: KlineData): CandlestickData<UTCTimestamp> {
  return {
    time: Math.floor(kline.time / 1000) as UTCTimestamp,
    open: Number(kline.open),
    high: Number(kline.high),
    low: Number(kline.low),
    close: Number(kline.close),
  }
}

function toVolume(kline: KlineData, up: string, down: string): HistogramData<UTCTimestamp> {
  const rising = Number(kline.close) >= Number(kline.open)
  return {
    time: Math.floor(kline.time / 1000) as UTCTimestamp,
    value: Number(kline.vol),
    color: `${rising ? up : down}80`,
  }
}

/** Decimal places the product's price format uses at this price, so the axis reads like the ticker. */
function decimalsAt(price: string): number {
  return formatPrice(price).split('.')[1]?.length ?? 2
}

/** Exposes what is drawn as data attributes, so a test (or a curious developer) can read it. */
function markDrawn(element: HTMLElement | null, drawn: Drawn, close: string): void {
  if (!element) return
  element.dataset.candles = String(drawn.count)
  element.dataset.lastTime = String(drawn.lastTime)
  element.dataset.lastClose = close
}

export default function CandleChart({ symbol, interval }: { symbol: string; interval: KlineInterval }) {
  const container = useRef<HTMLDivElement>(null)
  const drawn = useRef<Drawn | null>(null)
  const history = useKlineHistory(symbol, interval)
  const live = useKline(symbol, interval)
  const up = cssColour('--up', '#0ecb81')
  const down = cssColour('--down', '#f6465d')
  const settings = useSettings()
  const timeZone = useTimeZone().zoneId
  const dateFormat = settings.TIME_FORMAT
  const locale = useTranslation().i18n.language || 'en'

  useEffect(() => {
    const element = container.current
    if (!element) return
    const border = cssColour('--border', '#2b3139')
    const chart = createChart(element, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: cssColour('--surface', '#161a1e') },
        textColor: cssColour('--muted', '#848e9c'),
        fontSize: 11,
        attributionLogo: false,
      },
      localization: {
        timeFormatter: (time: Time) => crosshairTimeLabel(time, timeZone, dateFormat),
        // the axis and crosshair read like the ticker header: 66,958.37, not 66958.37
        priceFormatter: (price: number) => localisePrice(String(price), locale),
      },
      grid: {
        vertLines: { color: `${border}66` },
        horzLines: { color: `${border}66` },
      },
      crosshair: { mode: CrosshairMode.Normal },
      rightPriceScale: { borderColor: border },
      timeScale: {
        borderColor: border,
        timeVisible: true,
        secondsVisible: false,
        rightOffset: 4,
        tickMarkFormatter: (time: Time, type: TickMarkType) =>
          tickMarkLabel(time, type, timeZone, dateFormat),
      },
      // drag to pan and pinch to zoom on phones; wheel and drag on desktops
      handleScroll: { mouseWheel: true, pressedMouseMove: true, horzTouchDrag: true, vertTouchDrag: false },
      handleScale: { mouseWheel: true, pinch: true, axisPressedMouseMove: true, axisDoubleClickReset: true },
    })
    const candles = chart.addSeries(CandlestickSeries, {
      upColor: up,
      downColor: down,
      wickUpColor: up,
      wickDownColor: down,
      borderVisible: false,
      priceLineVisible: true,
      priceLineStyle: LineStyle.Dashed,
      lastValueVisible: true,
    })
    candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.24 } })
    const volume = chart.addSeries(HistogramSeries, {
      priceScaleId: 'volume',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    })
    chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } })
    drawn.current = { chart, candles, volume, lastTime: 0, count: 0 }
    const unblockPinch = blockMultiTouch(element)
    return () => {
      unblockPinch()
      drawn.current = null
      chart.remove()
    }
  }, [up, down, timeZone, dateFormat, locale])

  useEffect(() => {
    const current = drawn.current
    const rows = history.data
    if (!current || !rows) return
    const sorted = [...rows].sort((left, right) => left.time - right.time)
    const last = sorted[sorted.length - 1]
    const decimals = last ? decimalsAt(last.close) : 2
    current.candles.applyOptions({
      priceFormat: { type: 'price', precision: decimals, minMove: 10 ** -decimals },
    })
    current.candles.setData(sorted.map(toCandle))
    current.volume.setData(sorted.map((kline) => toVolume(kline, up, down)))
    current.lastTime = last?.time ?? 0
    current.count = sorted.length
    current.chart.timeScale().scrollToRealTime()
    markDrawn(container.current, current, last?.close ?? '')
  }, [history.data, up, down])

  useEffect(() => {
    const current = drawn.current
    // a live candle older than the last drawn one (a late frame) would be refused by the chart
    if (!current || !live || current.count === 0 || live.time < current.lastTime) return
    current.candles.update(toCandle(live))
    current.volume.update(toVolume(live, up, down))
    if (live.time > current.lastTime) current.count++
    current.lastTime = live.time
    markDrawn(container.current, current, live.close)
  }, [live, up, down])

  return (
    <div
      ref={container}
      className="candle-chart"
      data-testid="candle-chart"
      data-symbol={symbol}
      data-interval={interval}
      aria-busy={history.data === undefined}
    />
  )
}
