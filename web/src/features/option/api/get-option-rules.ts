import { useCall } from '../../../lib/swr'

/** Rule texts under one key of OPTION_RULE_KEYS. */
export function useOptionRules(key: string) {
  return useCall('optionRules', { query: { key } })
}
