import { useCall } from '../../../lib/swr'

export function useProxyProducts() {
  return useCall('proxyProducts')
}
