import { useState } from 'react'
import type { LineData, UTCTimestamp, WhitespaceData } from 'lightweight-charts'
import { STORAGE_KEYS } from '@tradegate/shared'
import { bollingerBands, exponentialMovingAverage, movingAverage } from '../lib/indicators'
import { readJson, writeJson } from '../lib/storage'
import type { ChartParts } from './chart-setup'

// Which indicators the candle chart draws, remembered across visits, and drawing them from the closes.

export const INDICATORS = ['ma', 'ema', 'boll', 'volume'] as const
export type Indicator = (typeof INDICATORS)[number]
export type IndicatorChoice = Record<Indicator, boolean>

/** Binance's defaults: MA 7, EMA 25, Bollinger 20 candles at two deviations. */
export const MA_PERIOD = 7
export const EMA_PERIOD = 25
export const BOLL_PERIOD = 20
export const BOLL_WIDTH = 2

const FIRST_VISIT: IndicatorChoice = { ma: true, ema: false, boll: false, volume: true }

/** The stored choice, each indicator a first visit does not name taking its default. */
export function storedChoice(): IndicatorChoice {
  const stored = readJson<Partial<Record<string, unknown>>>(STORAGE_KEYS.chartIndicators) ?? {}
  const choice = { ...FIRST_VISIT }
  for (const indicator of INDICATORS) {
    if (typeof stored[indicator] === 'boolean') choice[indicator] = stored[indicator]
  }
  return choice
}

/** The choice and a toggle that remembers it. */
export function useIndicatorChoice(): [IndicatorChoice, (indicator: Indicator) => void] {
  const [choice, setChoice] = useState(storedChoice)
  const toggle = (indicator: Indicator) => {
    const next = { ...choice, [indicator]: !choice[indicator] }
    writeJson(STORAGE_KEYS.chartIndicators, next)
    setChoice(next)
  }
  return [choice, toggle]
}

export interface Close {
  time: UTCTimestamp
  value: number
}

type Point = LineData<UTCTimestamp> | WhitespaceData<UTCTimestamp>

function points(closes: readonly Close[], values: readonly (number | null)[]): Point[] {
  return closes.map((close, index) => {
    const value = values[index]
    return value === null || value === undefined ? { time: close.time } : { time: close.time, value }
  })
}

/** The chosen indicators' values at every close; an indicator not chosen has none. */
function indicatorValues(closes: readonly Close[], choice: IndicatorChoice) {
  const values = closes.map((close) => close.value)
  const bands = choice.boll ? bollingerBands(values, BOLL_PERIOD, BOLL_WIDTH) : null
  return {
    ma: choice.ma ? movingAverage(values, MA_PERIOD) : null,
    ema: choice.ema ? exponentialMovingAverage(values, EMA_PERIOD) : null,
    bollUpper: bands?.map((band) => band?.upper ?? null) ?? null,
    bollMiddle: bands?.map((band) => band?.middle ?? null) ?? null,
    bollLower: bands?.map((band) => band?.lower ?? null) ?? null,
  }
}

const LINES = ['ma', 'ema', 'bollUpper', 'bollMiddle', 'bollLower'] as const

/** Shows the chosen series, hides the rest, and draws the chosen indicators over all the closes. */
export function drawIndicators(parts: ChartParts, closes: readonly Close[], choice: IndicatorChoice): void {
  const values = indicatorValues(closes, choice)
  for (const line of LINES) {
    const series = values[line]
    parts[line].applyOptions({ visible: series !== null })
    parts[line].setData(series ? points(closes, series) : [])
  }
  parts.volume.applyOptions({ visible: choice.volume })
  // without volume the candles take the bottom of the pane too
  parts.candles
    .priceScale()
    .applyOptions({ scaleMargins: { top: 0.08, bottom: choice.volume ? 0.24 : 0.08 } })
}

/** Redraws only the newest point of each chosen indicator, after the live candle changed the last close. */
export function updateIndicators(parts: ChartParts, closes: readonly Close[], choice: IndicatorChoice): void {
  const last = closes.at(-1)
  if (!last) return
  const values = indicatorValues(closes, choice)
  for (const line of LINES) {
    const value = values[line]?.at(-1)
    if (value !== null && value !== undefined) parts[line].update({ time: last.time, value })
  }
}
