import { useCall } from '../../../lib/swr'

export function useHelpList() {
  return useCall('helpList')
}
