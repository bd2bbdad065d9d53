import { useCall } from '../../../lib/swr'

/** Stop-loss and take-profit settings of the user's positions. */
export function useLossSettings() {
  return useCall('lossList')
}
