import { Suspense, lazy } from 'react'
import { LoadingBlock } from '../components/loading-block'
import TradeScreen from '../features/trade/screens/trade'

// The trade screen with the options desk in its Options tab: two features meet here, in the app.
// The desk is a chunk of its own, loaded when the tab opens: spot and futures, the tabs most links
// open, no longer download and evaluate the option chain before their first paint.
const OptionTrading = lazy(() =>
  import('../features/option/components/option-trading').then(({ OptionTrading }) => ({
    default: OptionTrading,
  })),
)

export default function TradeWithOptions() {
  return (
    <TradeScreen
      optionPanel={(coin) => (
        <Suspense
          fallback={
            <div className="panel trade-form-area">
              <LoadingBlock />
            </div>
          }
        >
          <OptionTrading key={coin} coin={coin} />
        </Suspense>
      )}
    />
  )
}
