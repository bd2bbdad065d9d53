import { useCall } from '../../../lib/swr'

export function useWithdrawChannels() {
  return useCall('getWithDrawCoinList')
}
