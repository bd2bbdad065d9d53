import type { Handlers } from '../api/handler'
import { page } from '../api/paging'
import type { OptionDesk } from './options'

export function optionHandlers(
  options: OptionDesk,
): Pick<Handlers, 'optionChain' | 'optionOrderSubmit' | 'optionOrderSell' | 'optionPositions'> {
  return {
    optionChain: ({ query }) => options.chain(query.coin),
    optionOrderSubmit: ({ user, body }) => options.buy(user, body),
    optionOrderSell: ({ user, body }) => options.sell(user, body),
    optionPositions: ({ user, query }) => page(options.list(user.id, query.status), query),
  }
}
