import type { InEveryLanguage, Text } from './languages'

// The sandbox's notices in every bundle language, by notice; articles.ts places them (id, key, page)
// and answers them in the request's language. The withdrawal-hours notice states WITHDRAWAL_SETTING's
// window in DEFAULT_TIME_ZONE, as the cashier applies it.

export type NoticeName = 'sandboxOpen' | 'goldListing' | 'welcomeBonus' | 'withdrawalHours'

export const NOTICE_TEXTS: InEveryLanguage<Readonly<Record<NoticeName, Text>>> = {
  en: {
    sandboxOpen: [
      'Sandbox market open',
      'Prices here are simulated. Nothing you do in the sandbox touches real money.',
    ],
    goldListing: ['New listing: Gold (XAU)', 'Gold is now tradable as a contract and as a second contract.'],
    welcomeBonus: ['Welcome bonus', 'Every new account receives 80 USDT to try every product.'],
    withdrawalHours: [
      'Withdrawal hours',
      'Withdrawals are accepted from 11:00 to 23:00 (UTC+8) and reviewed the same day.',
    ],
  },
  zh: {
    sandboxOpen: ['模拟盘市场已开放', '此处价格均为模拟。您在模拟盘中的任何操作都不涉及真实资金。'],
    goldListing: ['新上线：黄金 (XAU)', '黄金现已支持合约和秒合约交易。'],
    welcomeBonus: ['新人奖励', '每个新账户可获得 80 USDT，用于体验所有产品。'],
    withdrawalHours: ['提现时间', '提现受理时间为 11:00 至 23:00 (UTC+8)，当天审核。'],
  },
  ja: {
    sandboxOpen: [
      'サンドボックス市場オープン',
      'ここでの価格はシミュレーションです。サンドボックスでの操作が実際のお金に影響することはありません。',
    ],
    goldListing: ['新規上場：ゴールド (XAU)', 'ゴールドが契約取引と秒契約で取引できるようになりました。'],
    welcomeBonus: [
      'ウェルカムボーナス',
      '新規アカウントには、すべての商品をお試しいただける 80 USDT が付与されます。',
    ],
    withdrawalHours: ['出金受付時間', '出金は 11:00 から 23:00 (UTC+8) まで受け付け、当日中に審査します。'],
  },
  ko: {
    sandboxOpen: [
      '샌드박스 시장 개장',
      '이곳의 가격은 시뮬레이션입니다. 샌드박스에서 하는 어떤 거래도 실제 자금에 영향을 주지 않습니다.',
    ],
    goldListing: ['신규 상장: 금 (XAU)', '이제 금을 계약과 초 계약으로 거래할 수 있습니다.'],
    welcomeBonus: ['웰컴 보너스', '모든 신규 계정은 모든 상품을 체험할 수 있도록 80 USDT를 받습니다.'],
    withdrawalHours: ['출금 가능 시간', '출금은 11:00부터 23:00 (UTC+8)까지 접수되며 당일 심사됩니다.'],
  },
  th: {
    sandboxOpen: ['ตลาดแซนด์บ็อกซ์เปิดแล้ว', 'ราคาในที่นี้เป็นราคาจำลอง ทุกสิ่งที่คุณทำในแซนด์บ็อกซ์ไม่เกี่ยวข้องกับเงินจริง'],
    goldListing: ['เปิดให้เทรดใหม่: ทองคำ (XAU)', 'ขณะนี้สามารถเทรดทองคำได้ทั้งแบบสัญญาและสัญญาวินาที'],
    welcomeBonus: ['โบนัสต้อนรับ', 'บัญชีใหม่ทุกบัญชีจะได้รับ 80 USDT เพื่อทดลองใช้ทุกผลิตภัณฑ์'],
    withdrawalHours: ['เวลาถอน', 'รับคำขอถอนตั้งแต่ 11:00 ถึง 23:00 (UTC+8) และตรวจสอบภายในวันเดียวกัน'],
  },
  vi: {
    sandboxOpen: [
      'Thị trường sandbox đã mở',
      'Giá ở đây là giá mô phỏng. Mọi thao tác của bạn trong sandbox đều không liên quan đến tiền thật.',
    ],
    goldListing: [
      'Niêm yết mới: Vàng (XAU)',
      'Vàng hiện đã có thể giao dịch dưới dạng hợp đồng và hợp đồng giây.',
    ],
    welcomeBonus: ['Thưởng chào mừng', 'Mỗi tài khoản mới nhận 80 USDT để trải nghiệm mọi sản phẩm.'],
    withdrawalHours: [
      'Giờ rút tiền',
      'Yêu cầu rút tiền được tiếp nhận từ 11:00 đến 23:00 (UTC+8) và được xét duyệt trong ngày.',
    ],
  },
  pt: {
    sandboxOpen: [
      'Mercado sandbox aberto',
      'Os preços aqui são simulados. Nada do que você faz no sandbox envolve dinheiro real.',
    ],
    goldListing: [
      'Nova listagem: Ouro (XAU)',
      'O ouro agora pode ser negociado como contrato e como contrato de segundos.',
    ],
    welcomeBonus: [
      'Bônus de boas-vindas',
      'Toda conta nova recebe 80 USDT para experimentar todos os produtos.',
    ],
    withdrawalHours: [
      'Horário de saque',
      'Os saques são aceitos das 11:00 às 23:00 (UTC+8) e analisados no mesmo dia.',
    ],
  },
  es: {
    sandboxOpen: [
      'Mercado sandbox abierto',
      'Los precios aquí son simulados. Nada de lo que hagas en el sandbox afecta a dinero real.',
    ],
    goldListing: [
      'Nuevo listado: Oro (XAU)',
      'El oro ya se puede operar como contrato y como contrato por segundos.',
    ],
    welcomeBonus: ['Bono de bienvenida', 'Cada cuenta nueva recibe 80 USDT para probar todos los productos.'],
    withdrawalHours: [
      'Horario de retiros',
      'Los retiros se aceptan de 11:00 a 23:00 (UTC+8) y se revisan el mismo día.',
    ],
  },
  fr: {
    sandboxOpen: [
      'Marché sandbox ouvert',
      "Les prix affichés ici sont simulés. Rien de ce que vous faites dans le sandbox ne touche à de l'argent réel.",
    ],
    goldListing: [
      'Nouvelle cotation : Or (XAU)',
      "L'or se négocie désormais en contrat et en contrat à la seconde.",
    ],
    welcomeBonus: [
      'Bonus de bienvenue',
      'Chaque nouveau compte reçoit 80 USDT pour essayer tous les produits.',
    ],
    withdrawalHours: [
      'Horaires de retrait',
      'Les retraits sont acceptés de 11:00 à 23:00 (UTC+8) et examinés le jour même.',
    ],
  },
  ru: {
    sandboxOpen: [
      'Рынок песочницы открыт',
      'Цены здесь смоделированы. Ничто из того, что вы делаете в песочнице, не затрагивает реальные деньги.',
    ],
    goldListing: [
      'Новый листинг: золото (XAU)',
      'Золото теперь доступно для торговли контрактами и секундными контрактами.',
    ],
    welcomeBonus: [
      'Приветственный бонус',
      'Каждый новый аккаунт получает 80 USDT, чтобы попробовать все продукты.',
    ],
    withdrawalHours: [
      'Часы вывода',
      'Заявки на вывод принимаются с 11:00 до 23:00 (UTC+8) и рассматриваются в тот же день.',
    ],
  },
  de: {
    sandboxOpen: [
      'Sandbox-Markt geöffnet',
      'Die Preise hier sind simuliert. Nichts, was Sie in der Sandbox tun, berührt echtes Geld.',
    ],
    goldListing: [
      'Neu gelistet: Gold (XAU)',
      'Gold ist jetzt als Kontrakt und als Sekundenkontrakt handelbar.',
    ],
    welcomeBonus: ['Willkommensbonus', 'Jedes neue Konto erhält 80 USDT, um alle Produkte auszuprobieren.'],
    withdrawalHours: [
      'Auszahlungszeiten',
      'Auszahlungen werden von 11:00 bis 23:00 Uhr (UTC+8) angenommen und noch am selben Tag geprüft.',
    ],
  },
  it: {
    sandboxOpen: [
      'Mercato sandbox aperto',
      'I prezzi qui sono simulati. Nulla di ciò che fai nella sandbox riguarda denaro reale.',
    ],
    goldListing: [
      'Nuova quotazione: Oro (XAU)',
      "L'oro è ora negoziabile come contratto e come contratto a secondi.",
    ],
    welcomeBonus: ['Bonus di benvenuto', 'Ogni nuovo account riceve 80 USDT per provare tutti i prodotti.'],
    withdrawalHours: [
      'Orario dei prelievi',
      'I prelievi sono accettati dalle 11:00 alle 23:00 (UTC+8) e verificati in giornata.',
    ],
  },
  pl: {
    sandboxOpen: [
      'Rynek sandbox otwarty',
      'Ceny są tutaj symulowane. Nic, co robisz w sandboksie, nie dotyczy prawdziwych pieniędzy.',
    ],
    goldListing: [
      'Nowość: Złoto (XAU)',
      'Złotem można teraz handlować w formie kontraktu i kontraktu sekundowego.',
    ],
    welcomeBonus: [
      'Bonus powitalny',
      'Każde nowe konto otrzymuje 80 USDT na wypróbowanie wszystkich produktów.',
    ],
    withdrawalHours: [
      'Godziny wypłat',
      'Wypłaty są przyjmowane od 11:00 do 23:00 (UTC+8) i rozpatrywane tego samego dnia.',
    ],
  },
  ar: {
    sandboxOpen: [
      'سوق البيئة التجريبية مفتوح',
      'الأسعار هنا محاكاة. لا شيء مما تفعله في البيئة التجريبية يمس أموالًا حقيقية.',
    ],
    goldListing: ['إدراج جديد: الذهب (XAU)', 'يمكن الآن تداول الذهب بالعقود وبعقود الثواني.'],
    welcomeBonus: ['مكافأة ترحيبية', 'يحصل كل حساب جديد على 80 USDT لتجربة جميع المنتجات.'],
    withdrawalHours: ['ساعات السحب', 'تُقبل طلبات السحب من 11:00 إلى 23:00 (UTC+8) وتُراجع في اليوم نفسه.'],
  },
  da: {
    sandboxOpen: [
      'Sandkassemarkedet er åbent',
      'Kurserne her er simulerede. Intet, du gør i sandkassen, berører rigtige penge.',
    ],
    goldListing: ['Ny notering: Guld (XAU)', 'Guld kan nu handles som kontrakt og som sekundkontrakt.'],
    welcomeBonus: ['Velkomstbonus', 'Hver ny konto får 80 USDT til at prøve alle produkter.'],
    withdrawalHours: [
      'Udbetalingstider',
      'Udbetalinger modtages fra kl. 11:00 til 23:00 (UTC+8) og behandles samme dag.',
    ],
  },
  tr: {
    sandboxOpen: [
      'Sandbox piyasası açık',
      'Buradaki fiyatlar simülasyondur. Sandbox ortamında yaptığınız hiçbir işlem gerçek parayı etkilemez.',
    ],
    goldListing: [
      'Yeni listeleme: Altın (XAU)',
      'Altın artık kontrat ve saniye kontratı olarak işlem görebilir.',
    ],
    welcomeBonus: ['Hoş geldin bonusu', 'Her yeni hesap, tüm ürünleri denemek için 80 USDT alır.'],
    withdrawalHours: [
      'Çekim saatleri',
      'Para çekme talepleri 11:00 ile 23:00 (UTC+8) arasında kabul edilir ve aynı gün incelenir.',
    ],
  },
}
