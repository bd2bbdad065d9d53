import { callApi, type CallOptions } from '../../../lib/http'

/** Adds margin to a position, or takes it out. */
export function adjustMargin(id: number, money: string, direction: 'add' | 'remove', options?: CallOptions) {
  return callApi(
    'positionAdjustMargin',
    { query: { id: String(id), money, flag: direction === 'add' ? '1' : '0' } },
    options,
  )
}
