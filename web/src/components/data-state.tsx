import type { ReactNode } from 'react'
import { useTranslation } from '../lib/i18n'
import { Failure } from './failure'
import { LoadingBlock } from './loading-block'
import { NoData } from './no-data'

export interface DataStateProps<T> {
  data: T | undefined
  error: unknown
  isLoading: boolean
  /** true when the data has nothing to show */
  isEmpty?: (data: T) => boolean
  /** fetches again; with it a failure offers a retry */
  mutate?: () => unknown
  children: (data: T) => ReactNode
}

/** Loading, failure and empty states of one fetched value, so screens only render the happy path. */
export function DataState<T>({ data, error, isLoading, isEmpty, mutate, children }: DataStateProps<T>) {
  const { t } = useTranslation()
  if (data === undefined) {
    if (isLoading) return <LoadingBlock />
    if (error)
      return mutate ? <Failure error={error} onRetry={mutate} /> : <NoData text={t('common.loadFailed')} />
    return <NoData />
  }
  if (isEmpty?.(data)) return <NoData />
  return <>{children(data)}</>
}
