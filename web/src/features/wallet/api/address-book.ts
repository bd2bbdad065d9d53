import type { CallBody } from '@tradegate/shared'
import { callApi, type CallOptions } from '../../../lib/http'
import { useCall } from '../../../lib/swr'

export function useAddressBook() {
  return useCall('addressBook')
}

export function addToAddressBook(body: CallBody<'addressBookAdd'>, options?: CallOptions) {
  return callApi('addressBookAdd', { body }, options)
}

export function removeFromAddressBook(id: number, options?: CallOptions) {
  return callApi('addressBookRemove', { query: { id: String(id) } }, options)
}
