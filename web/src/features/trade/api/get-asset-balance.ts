import { useCall } from '../../../lib/swr'

export function useBalances() {
  return useCall('assetBalance')
}
