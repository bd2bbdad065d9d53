import { OptionTrading } from '../features/option/components/option-trading'
import TradeScreen from '../features/trade/screens/trade'

// The trade screen with the options desk in its Options tab: two features meet here, in the app.

export default function TradeWithOptions() {
  return <TradeScreen optionPanel={(coin) => <OptionTrading key={coin} coin={coin} />} />
}
