import { useCall } from '../../../lib/swr'

export function useAssetBalance() {
  return useCall('assetBalance')
}
