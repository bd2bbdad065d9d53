import { useCall } from '../../../lib/swr'

export function useWelfareTasks() {
  return useCall('welfareTasks')
}
