import { callApi } from '../../../lib/http'
import { useCall } from '../../../lib/swr'

export function useWithdrawAddresses() {
  return useCall('withdrawAddress')
}

export function saveWithdrawAddress(type: string, address: string) {
  return callApi('updateWithdrawAddress', { query: { type, address } }, { quiet: true })
}
