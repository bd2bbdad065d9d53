import { inLanguage, type InEveryLanguage } from './languages'

// Product names in every bundle language: the sandbox answers them in the language the request names,
// as the exchange does, and English for a language it does not know.

export const PRODUCT_NAME_KEYS = ['usdt7', 'usdt30', 'usdt90', 'steadyQuant', 'trendFollowing'] as const
export type ProductNameKey = (typeof PRODUCT_NAME_KEYS)[number]

type Names = Readonly<Record<ProductNameKey, string>>

const NAMES: InEveryLanguage<Names> = {
  en: {
    usdt7: 'USDT Flexible 7 days',
    usdt30: 'USDT Fixed 30 days',
    usdt90: 'USDT Fixed 90 days',
    steadyQuant: 'Steady quant desk',
    trendFollowing: 'Trend following desk',
  },
  zh: {
    usdt7: 'USDT 灵活 7 天',
    usdt30: 'USDT 定期 30 天',
    usdt90: 'USDT 定期 90 天',
    steadyQuant: '稳健量化组合',
    trendFollowing: '趋势跟踪组合',
  },
  ja: {
    usdt7: 'USDT フレキシブル 7日',
    usdt30: 'USDT 定期 30日',
    usdt90: 'USDT 定期 90日',
    steadyQuant: '安定クオンツデスク',
    trendFollowing: 'トレンドフォローデスク',
  },
  ko: {
    usdt7: 'USDT 자유 7일',
    usdt30: 'USDT 고정 30일',
    usdt90: 'USDT 고정 90일',
    steadyQuant: '안정형 퀀트 데스크',
    trendFollowing: '추세 추종 데스크',
  },
  th: {
    usdt7: 'USDT แบบยืดหยุ่น 7 วัน',
    usdt30: 'USDT แบบประจำ 30 วัน',
    usdt90: 'USDT แบบประจำ 90 วัน',
    steadyQuant: 'พอร์ตเชิงปริมาณแบบมั่นคง',
    trendFollowing: 'พอร์ตตามแนวโน้ม',
  },
  vi: {
    usdt7: 'USDT Linh hoạt 7 ngày',
    usdt30: 'USDT Cố định 30 ngày',
    usdt90: 'USDT Cố định 90 ngày',
    steadyQuant: 'Quỹ định lượng ổn định',
    trendFollowing: 'Quỹ theo xu hướng',
  },
  pt: {
    usdt7: 'USDT Flexível 7 dias',
    usdt30: 'USDT Fixo 30 dias',
    usdt90: 'USDT Fixo 90 dias',
    steadyQuant: 'Mesa quantitativa estável',
    trendFollowing: 'Mesa de seguimento de tendência',
  },
  es: {
    usdt7: 'USDT Flexible 7 días',
    usdt30: 'USDT Fijo 30 días',
    usdt90: 'USDT Fijo 90 días',
    steadyQuant: 'Mesa cuantitativa estable',
    trendFollowing: 'Mesa de seguimiento de tendencia',
  },
  fr: {
    usdt7: 'USDT Flexible 7 jours',
    usdt30: 'USDT Bloqué 30 jours',
    usdt90: 'USDT Bloqué 90 jours',
    steadyQuant: 'Desk quantitatif prudent',
    trendFollowing: 'Desk de suivi de tendance',
  },
  ru: {
    usdt7: 'USDT Гибкий 7 дней',
    usdt30: 'USDT Срочный 30 дней',
    usdt90: 'USDT Срочный 90 дней',
    steadyQuant: 'Стабильный квант-портфель',
    trendFollowing: 'Портфель следования за трендом',
  },
  de: {
    usdt7: 'USDT Flexibel 7 Tage',
    usdt30: 'USDT Festgeld 30 Tage',
    usdt90: 'USDT Festgeld 90 Tage',
    steadyQuant: 'Stabiles Quant-Portfolio',
    trendFollowing: 'Trendfolge-Portfolio',
  },
  it: {
    usdt7: 'USDT Flessibile 7 giorni',
    usdt30: 'USDT Vincolato 30 giorni',
    usdt90: 'USDT Vincolato 90 giorni',
    steadyQuant: 'Desk quantitativo stabile',
    trendFollowing: 'Desk trend following',
  },
  pl: {
    usdt7: 'USDT Elastyczny 7 dni',
    usdt30: 'USDT Stały 30 dni',
    usdt90: 'USDT Stały 90 dni',
    steadyQuant: 'Stabilny portfel ilościowy',
    trendFollowing: 'Portfel podążania za trendem',
  },
  ar: {
    usdt7: 'USDT مرن 7 أيام',
    usdt30: 'USDT ثابت 30 يومًا',
    usdt90: 'USDT ثابت 90 يومًا',
    steadyQuant: 'محفظة كمية مستقرة',
    trendFollowing: 'محفظة تتبع الاتجاه',
  },
  da: {
    usdt7: 'USDT Fleksibel 7 dage',
    usdt30: 'USDT Fast 30 dage',
    usdt90: 'USDT Fast 90 dage',
    steadyQuant: 'Stabil kvant-portefølje',
    trendFollowing: 'Trendfølgende portefølje',
  },
  tr: {
    usdt7: 'USDT Esnek 7 gün',
    usdt30: 'USDT Sabit 30 gün',
    usdt90: 'USDT Sabit 90 gün',
    steadyQuant: 'İstikrarlı kantitatif masa',
    trendFollowing: 'Trend takip masası',
  },
}

/** The product's name in the request's language, else English. */
export function productName(key: ProductNameKey, language: string | undefined): string {
  return inLanguage(NAMES, language)[key]
}
