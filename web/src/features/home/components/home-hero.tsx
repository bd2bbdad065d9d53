import { useTranslation } from '../../../lib/i18n'
import { Link } from 'wouter'
import { useSession } from '../../../lib/session'

/** The greeting and the first two steps: deposit and trade when signed in, register and log in when not. */
export function HomeHero() {
  const { t } = useTranslation()
  const { token, userInfo } = useSession()
  return (
    <section className="hero">
      <h2>{token ? t('home.welcomeUser', { name: userInfo?.username ?? '' }) : t('home.heroTitle')}</h2>
      <p>{t('home.heroText')}</p>
      <div className="hero-actions">
        {token ? (
          <>
            <Link href="/recharge" className="button button-primary">
              {t('menu.recharge')}
            </Link>
            <Link href="/trade?id=1" className="button">
              {t('tabBar.trade')}
            </Link>
          </>
        ) : (
          <>
            <Link href="/register" className="button button-primary" data-testid="hero-register">
              {t('auth.register')}
            </Link>
            <Link href="/login" className="button" data-testid="hero-login">
              {t('auth.login')}
            </Link>
          </>
        )}
      </div>
    </section>
  )
}
