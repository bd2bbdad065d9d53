import type { CoinEntry, ContractPair, OptionCoin, Period, SpotPair, WatchCoin } from '@tradegate/shared'
import {
  contractLeverages,
  DEFAULT_SECOND_PERIODS,
  INSTRUMENTS,
  QUOTE_COIN,
  SECOND_MAX_AMOUNT,
  SECOND_MIN_AMOUNT,
  SPOT_FEE_RATE,
  USDT_PER_SHARE,
  type Instrument,
} from './catalogue'
import type { Market } from './market'
import { optionFeeOf } from './option-series'

// The lists of tradable things, as the coin-list, symbol-list and period calls present them.

const SPOT_ORDER_MIN_USDT = '5'
const SPOT_ORDER_MAX_USDT = '1000000'
const CONTRACT_MIN_SHARES = '1'
const CONTRACT_MAX_SHARES = '100000'

export function showSymbol(instrument: Instrument): string {
  return `${instrument.coin.toUpperCase()}/${QUOTE_COIN.toUpperCase()}`
}

function idOf(instrument: Instrument): number {
  return INSTRUMENTS.indexOf(instrument) + 1
}

export function watchCoin(instrument: Instrument, id = idOf(instrument)): WatchCoin {
  return {
    id,
    coin: instrument.coin,
    symbol: instrument.symbol,
    showSymbol: showSymbol(instrument),
    type: instrument.coinType,
    status: 1,
    showFlag: 1,
    sort: idOf(instrument),
  }
}

export function spotPairs(): SpotPair[] {
  return INSTRUMENTS.filter((instrument) => instrument.coinType === 1).map((instrument) => ({
    id: idOf(instrument),
    symbol: instrument.symbol,
    coin: instrument.coin,
    baseCoin: QUOTE_COIN,
    basePrecision: instrument.pricePlaces,
    coinPrecision: instrument.quantityPlaces,
    buyMax: SPOT_ORDER_MAX_USDT,
    sellMin: SPOT_ORDER_MIN_USDT,
    minSell: SPOT_ORDER_MIN_USDT,
    orderMin: SPOT_ORDER_MIN_USDT,
    orderMax: SPOT_ORDER_MAX_USDT,
    feeRate: SPOT_FEE_RATE,
    enable: true,
    isDeal: true,
    isShow: true,
    limitedBuy: true,
    limitedSell: true,
    marketBuy: true,
    marketSell: true,
  }))
}

export function contractPairs(market: Market, fees: { openFee: string; closeFee: string }): ContractPair[] {
  return INSTRUMENTS.filter((instrument) => instrument.contract).map((instrument) => ({
    id: idOf(instrument),
    symbol: instrument.symbol,
    coin: instrument.coin,
    baseCoin: QUOTE_COIN,
    showSymbol: showSymbol(instrument),
    market: instrument.market,
    leverage: contractLeverages(instrument),
    minShare: CONTRACT_MIN_SHARES,
    maxShare: CONTRACT_MAX_SHARES,
    shareNumber: USDT_PER_SHARE,
    openFee: fees.openFee,
    closeFee: fees.closeFee,
    usdtRate: '1',
    baseScale: instrument.pricePlaces,
    coinScale: instrument.quantityPlaces,
    intervalHour: 8,
    deliveryDays: 0,
    enable: true,
    sort: idOf(instrument),
    visible: true,
    amount: market.price(instrument.symbol).toFixed(),
    open: market.detail(instrument.symbol).open,
  }))
}

export function optionCoins(): OptionCoin[] {
  return INSTRUMENTS.filter((instrument) => instrument.second).map((instrument) => ({
    ...watchCoin(instrument),
    ...optionFeeOf(instrument),
  }))
}

export function coinEntries(market: Market): CoinEntry[] {
  return INSTRUMENTS.map((instrument) => ({
    baseCoin: QUOTE_COIN,
    coin: instrument.coin,
    symbol: instrument.symbol,
    market: instrument.market,
    customizeFlag: 0,
    showSymbol: showSymbol(instrument),
    coinType: instrument.coinType,
    amount: market.price(instrument.symbol).toFixed(),
    open: market.detail(instrument.symbol).open,
  }))
}

/** Periods of every second-contract symbol; ids are stable for a given list of period lengths. */
export function secondPeriods(periodSeconds: readonly number[] | undefined): Period[] {
  const periods = periodSeconds
    ? periodSeconds.map((seconds, index) => ({ seconds, rate: DEFAULT_SECOND_PERIODS[index]?.rate ?? '0.1' }))
    : DEFAULT_SECOND_PERIODS
  return INSTRUMENTS.filter((instrument) => instrument.second).flatMap((instrument) =>
    periods.map((period, index) => ({
      id: idOf(instrument) * 100 + index + 1,
      symbol: instrument.symbol,
      seconds: period.seconds,
      rate: period.rate,
      minAmount: SECOND_MIN_AMOUNT,
      maxAmount: SECOND_MAX_AMOUNT,
    })),
  )
}

export const CONTRACT_LIMITS = { minShares: CONTRACT_MIN_SHARES, maxShares: CONTRACT_MAX_SHARES }
