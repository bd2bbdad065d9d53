import { useCall } from '../../../lib/swr'

export function useRechargeCoins() {
  return useCall('getAppCurrencyList')
}
