import {
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  HistogramSeries,
  LineSeries,
  LineStyle,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type TickMarkType,
  type Time,
} from 'lightweight-charts'
import { localisePrice } from '../lib/intl'
import { crosshairTimeLabel, tickMarkLabel } from '../lib/time-labels'

// Building the candle chart: its look, its labels in the user's language and zone, and its series.

export interface ChartLook {
  up: string
  down: string
  timeZone: string
  locale: string
}

export interface ChartParts {
  chart: IChartApi
  candles: ISeriesApi<'Candlestick'>
  volume: ISeriesApi<'Histogram'>
  ma: ISeriesApi<'Line'>
  ema: ISeriesApi<'Line'>
  bollUpper: ISeriesApi<'Line'>
  bollMiddle: ISeriesApi<'Line'>
  bollLower: ISeriesApi<'Line'>
}

export function cssColour(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim()
  return value || fallback
}

/** Indicator colours: distinct from the candles' green and red in both themes. */
export const INDICATOR_COLOURS = { ma: '#f0b90b', ema: '#c86bfa', boll: '#3d9af5' } as const

export function createCandleChart(element: HTMLElement, look: ChartLook): ChartParts {
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
      timeFormatter: (time: Time) => crosshairTimeLabel(time, look.timeZone, look.locale),
      // the axis and crosshair read like the ticker header: 66,958.37, not 66958.37
      priceFormatter: (price: number) => localisePrice(String(price), look.locale),
    },
    grid: { vertLines: { color: `${border}66` }, horzLines: { color: `${border}66` } },
    crosshair: { mode: CrosshairMode.Normal },
    rightPriceScale: { borderColor: border },
    timeScale: {
      borderColor: border,
      timeVisible: true,
      secondsVisible: false,
      rightOffset: 4,
      tickMarkFormatter: (time: Time, type: TickMarkType) =>
        tickMarkLabel(time, type, look.timeZone, look.locale),
    },
    // drag to pan and pinch to zoom on phones; wheel and drag on desktops
    handleScroll: { mouseWheel: true, pressedMouseMove: true, horzTouchDrag: true, vertTouchDrag: false },
    handleScale: { mouseWheel: true, pinch: true, axisPressedMouseMove: true, axisDoubleClickReset: true },
  })
  const candles = chart.addSeries(CandlestickSeries, {
    upColor: look.up,
    downColor: look.down,
    wickUpColor: look.up,
    wickDownColor: look.down,
    borderVisible: false,
    priceLineVisible: true,
    priceLineStyle: LineStyle.Dashed,
    lastValueVisible: true,
  })
  const volume = chart.addSeries(HistogramSeries, {
    priceScaleId: 'volume',
    priceFormat: { type: 'volume' },
    lastValueVisible: false,
    priceLineVisible: false,
  })
  chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } })
  // indicators share the candles' scale; they are drawn only, so no last-value label or price line
  const line = (color: string, lineStyle: LineStyle = LineStyle.Solid) =>
    chart.addSeries(LineSeries, {
      color,
      lineStyle,
      lineWidth: 1,
      priceLineVisible: false,
      lastValueVisible: false,
      crosshairMarkerVisible: false,
      visible: false,
    })
  return {
    chart,
    candles,
    volume,
    ma: line(INDICATOR_COLOURS.ma),
    ema: line(INDICATOR_COLOURS.ema),
    bollUpper: line(INDICATOR_COLOURS.boll, LineStyle.Dashed),
    bollMiddle: line(INDICATOR_COLOURS.boll),
    bollLower: line(INDICATOR_COLOURS.boll, LineStyle.Dashed),
  }
}
