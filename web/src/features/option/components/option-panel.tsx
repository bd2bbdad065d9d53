import { useTranslation } from 'react-i18next'
import { Link } from 'wouter'
import { OPTION_RULE_KEYS, changePercent, type OptionCoin } from '@tradegate/shared'
import { DataState } from '../../../components/data-state'
import { NoData } from '../../../components/no-data'
import { useAllTickers } from '../../../lib/live'
import { useFormatters } from '../../../lib/use-formatters'
import { directionOf } from '../../market/lib/market-rows'
import { tradeHref } from '../../market/lib/trade-link'
import { useOptionRules } from '../api/get-option-rules'

/** Fee type 1 is a percentage of the stake; any other type is a fixed amount in usdt. */
function feeText(coin: OptionCoin): string {
  return coin.feeType === 1 ? `${coin.feeValue}%` : `${coin.feeValue} USDT`
}

/** The option coins with their fees and live prices, and the option rules. */
export function OptionPanel({ coins }: { coins: readonly OptionCoin[] }) {
  const { t } = useTranslation()
  const tickers = useAllTickers()
  const { price } = useFormatters()
  const rules = useOptionRules(OPTION_RULE_KEYS.option)
  return (
    <>
      <section className="panel trade-form-area" aria-label={t('option.coins')}>
        <h2 className="panel-title">{t('option.coins')}</h2>
        {coins.length === 0 ? (
          <NoData />
        ) : (
          <table className="data-table option-table" data-testid="option-coins">
            <thead>
              <tr>
                <th>{t('option.coin')}</th>
                <th>{t('option.lastPrice')}</th>
                <th>{t('option.fee')}</th>
              </tr>
            </thead>
            <tbody>
              {coins.map((coin) => {
                const ticker = tickers[coin.symbol]
                const direction = directionOf(ticker ? changePercent(ticker.close, ticker.open) : '0')
                return (
                  <tr key={coin.symbol} data-symbol={coin.symbol}>
                    <td>
                      <Link href={tradeHref(coin.symbol, 'SecondContract')}>
                        <strong>{coin.showSymbol}</strong>
                      </Link>
                    </td>
                    <td className={`num ${direction}`}>{ticker ? price(ticker.close) : '--'}</td>
                    <td className="num">
                      <span className="muted">
                        {t(coin.feeType === 1 ? 'option.feeRate' : 'option.feeFixed')}
                      </span>{' '}
                      {feeText(coin)}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
      </section>
      <section className="panel trade-orders-area" aria-label={t('option.rules')}>
        <h2 className="panel-title">{t('option.rules')}</h2>
        <DataState {...rules} isEmpty={(list) => list.length === 0}>
          {(list) => (
            <div className="rules" data-testid="option-rules">
              {list.map((article) => (
                <article key={article.id}>
                  <h3>{article.title}</h3>
                  <p>{article.content}</p>
                </article>
              ))}
            </div>
          )}
        </DataState>
      </section>
    </>
  )
}
