import type { InEveryLanguage, Text } from './languages'

// The second-contract and contract rules in every bundle language, by rule; articles.ts files them under
// their rule keys. The option rules are in option-rules.ts.

export type TradingRuleName = 'secondSettlement' | 'secondPayouts' | 'contractMargin' | 'contractFees'

export const TRADING_RULE_TEXTS: InEveryLanguage<Readonly<Record<TradingRuleName, Text>>> = {
  en: {
    secondSettlement: [
      'How second contracts settle',
      'Your stake is held until the period ends. If the price then is above the opening price an up order wins; below, a down order wins; unchanged, the stake is returned.',
    ],
    secondPayouts: ['Payouts', 'A win pays the period rate on top of the stake. A loss forfeits the stake.'],
    contractMargin: [
      'Margin and leverage',
      'Margin is position value divided by leverage. A position is liquidated when its loss reaches its margin.',
    ],
    contractFees: ['Fees', 'Opening and closing a position each cost 0.1 % of its value.'],
  },
  zh: {
    secondSettlement: [
      '秒合约如何结算',
      '您的投入金额将被冻结至周期结束。届时若价格高于开仓价，看涨订单获胜；低于开仓价，看跌订单获胜；价格不变，则退还投入金额。',
    ],
    secondPayouts: [
      '收益',
      '获胜时，除退还投入金额外，另按该周期的收益率支付收益。亏损时，投入金额全部损失。',
    ],
    contractMargin: [
      '保证金与杠杆',
      '保证金等于持仓价值除以杠杆倍数。当持仓亏损达到其保证金时，该持仓将被强制平仓。',
    ],
    contractFees: ['手续费', '开仓和平仓各收取持仓价值 0.1% 的手续费。'],
  },
  ja: {
    secondSettlement: [
      '秒契約の決済方法',
      '投資額は期間が終わるまで預かります。その時点の価格が開始価格より高ければ上昇の注文が、低ければ下落の注文が勝ちとなり、変わらなければ投資額が返却されます。',
    ],
    secondPayouts: [
      '配当',
      '勝った場合は、投資額に加えて期間のレートに応じた配当が支払われます。負けた場合は投資額を失います。',
    ],
    contractMargin: [
      '証拠金とレバレッジ',
      '証拠金はポジション価値をレバレッジで割った額です。損失が証拠金に達したポジションは強制決済されます。',
    ],
    contractFees: [
      '手数料',
      'ポジションの新規建てと決済には、それぞれポジション価値の 0.1% の手数料がかかります。',
    ],
  },
  ko: {
    secondSettlement: [
      '초 계약 정산 방식',
      '투자 금액은 기간이 끝날 때까지 보관됩니다. 그때 가격이 시작 가격보다 높으면 상승 주문이, 낮으면 하락 주문이 이기며, 변동이 없으면 투자 금액이 반환됩니다.',
    ],
    secondPayouts: [
      '지급금',
      '이기면 투자 금액에 더해 기간 수익률만큼 지급됩니다. 지면 투자 금액을 잃습니다.',
    ],
    contractMargin: [
      '증거금과 레버리지',
      '증거금은 포지션 가치를 레버리지로 나눈 금액입니다. 손실이 증거금에 도달하면 포지션이 강제 청산됩니다.',
    ],
    contractFees: ['수수료', '포지션을 열 때와 닫을 때 각각 포지션 가치의 0.1%가 부과됩니다.'],
  },
  th: {
    secondSettlement: [
      'การชำระราคาสัญญาวินาที',
      'เงินลงทุนของคุณจะถูกกันไว้จนกว่าจะครบรอบเวลา หากราคาในตอนนั้นสูงกว่าราคาเปิด คำสั่งขึ้นจะชนะ หากต่ำกว่า คำสั่งลงจะชนะ หากราคาไม่เปลี่ยนแปลง จะได้รับเงินลงทุนคืน',
    ],
    secondPayouts: [
      'การจ่ายผลตอบแทน',
      'เมื่อชนะ คุณจะได้รับผลตอบแทนตามอัตราของรอบเวลานั้นเพิ่มจากเงินลงทุน เมื่อแพ้ คุณจะเสียเงินลงทุน',
    ],
    contractMargin: [
      'มาร์จิ้นและเลเวอเรจ',
      'มาร์จิ้นคือมูลค่าโพซิชันหารด้วยเลเวอเรจ โพซิชันจะถูกบังคับปิดเมื่อขาดทุนถึงมาร์จิ้นของโพซิชันนั้น',
    ],
    contractFees: ['ค่าธรรมเนียม', 'การเปิดและการปิดโพซิชันมีค่าธรรมเนียมครั้งละ 0.1% ของมูลค่าโพซิชัน'],
  },
  vi: {
    secondSettlement: [
      'Cách thanh toán hợp đồng giây',
      'Số tiền đặt của bạn được giữ lại cho đến khi hết kỳ. Khi đó, nếu giá cao hơn giá mở, lệnh Tăng thắng; nếu thấp hơn, lệnh Giảm thắng; nếu không đổi, số tiền đặt được hoàn lại.',
    ],
    secondPayouts: [
      'Tiền trả thưởng',
      'Khi thắng, bạn nhận thêm khoản thưởng theo tỷ lệ của kỳ ngoài số tiền đặt. Khi thua, bạn mất số tiền đặt.',
    ],
    contractMargin: [
      'Ký quỹ và đòn bẩy',
      'Ký quỹ bằng giá trị vị thế chia cho đòn bẩy. Vị thế bị thanh lý khi khoản lỗ chạm mức ký quỹ của nó.',
    ],
    contractFees: ['Phí', 'Mỗi lần mở và đóng vị thế đều tốn phí 0.1% giá trị vị thế.'],
  },
  pt: {
    secondSettlement: [
      'Como os contratos de segundos são liquidados',
      'O valor investido fica retido até o fim do período. Se o preço nesse momento estiver acima do preço de abertura, a ordem de alta ganha; abaixo, ganha a ordem de baixa; sem alteração, o valor investido é devolvido.',
    ],
    secondPayouts: [
      'Pagamentos',
      'Uma vitória paga a taxa do período além do valor investido. Uma derrota faz perder o valor investido.',
    ],
    contractMargin: [
      'Margem e alavancagem',
      'A margem é o valor da posição dividido pela alavancagem. Uma posição é liquidada quando o prejuízo atinge a sua margem.',
    ],
    contractFees: ['Taxas', 'Abrir e fechar uma posição custam, cada um, 0.1% do seu valor.'],
  },
  es: {
    secondSettlement: [
      'Cómo se liquidan los contratos por segundos',
      'El importe invertido queda retenido hasta que termina el periodo. Si entonces el precio está por encima del de apertura, gana la orden al alza; si está por debajo, gana la orden a la baja; si no cambia, se devuelve el importe invertido.',
    ],
    secondPayouts: [
      'Pagos',
      'Si ganas, recibes la tasa del periodo además del importe invertido. Si pierdes, pierdes el importe invertido.',
    ],
    contractMargin: [
      'Margen y apalancamiento',
      'El margen es el valor de la posición dividido por el apalancamiento. Una posición se liquida cuando su pérdida alcanza su margen.',
    ],
    contractFees: ['Comisiones', 'Abrir y cerrar una posición cuestan cada uno el 0.1 % de su valor.'],
  },
  fr: {
    secondSettlement: [
      'Règlement des contrats à la seconde',
      "Votre mise est bloquée jusqu'à la fin de la période. Si le prix est alors supérieur au prix d'ouverture, l'ordre à la hausse gagne ; s'il est inférieur, l'ordre à la baisse gagne ; s'il n'a pas changé, la mise est remboursée.",
    ],
    secondPayouts: [
      'Gains',
      'Un ordre gagnant rapporte le taux de la période en plus de la mise. Un ordre perdant fait perdre la mise.',
    ],
    contractMargin: [
      'Marge et levier',
      'La marge est la valeur de la position divisée par le levier. Une position est liquidée lorsque sa perte atteint sa marge.',
    ],
    contractFees: ['Frais', "L'ouverture et la clôture d'une position coûtent chacune 0.1 % de sa valeur."],
  },
  ru: {
    secondSettlement: [
      'Как рассчитываются секундные контракты',
      'Ваша ставка удерживается до конца периода. Если цена в этот момент выше цены открытия, выигрывает ордер «Вверх»; если ниже — ордер «Вниз»; если не изменилась, ставка возвращается.',
    ],
    secondPayouts: [
      'Выплаты',
      'При выигрыше к ставке добавляется доход по коэффициенту периода. При проигрыше ставка теряется.',
    ],
    contractMargin: [
      'Маржа и плечо',
      'Маржа — это стоимость позиции, делённая на плечо. Позиция ликвидируется, когда её убыток достигает её маржи.',
    ],
    contractFees: ['Комиссии', 'Открытие и закрытие позиции стоят по 0.1 % от её стоимости каждое.'],
  },
  de: {
    secondSettlement: [
      'So werden Sekundenkontrakte abgerechnet',
      'Ihr Einsatz wird bis zum Ende der Laufzeit einbehalten. Liegt der Preis dann über dem Eröffnungspreis, gewinnt eine „Steigt“-Order; liegt er darunter, gewinnt eine „Fällt“-Order; ist er unverändert, wird der Einsatz erstattet.',
    ],
    secondPayouts: [
      'Auszahlungen',
      'Ein Gewinn zahlt zusätzlich zum Einsatz den Satz der Laufzeit aus. Bei einem Verlust verfällt der Einsatz.',
    ],
    contractMargin: [
      'Margin und Hebel',
      'Die Margin ist der Positionswert geteilt durch den Hebel. Eine Position wird liquidiert, wenn ihr Verlust ihre Margin erreicht.',
    ],
    contractFees: ['Gebühren', 'Eröffnen und Schließen einer Position kosten jeweils 0.1 % ihres Werts.'],
  },
  it: {
    secondSettlement: [
      'Come si regolano i contratti a secondi',
      'La tua puntata resta bloccata fino alla fine del periodo. Se allora il prezzo è sopra il prezzo di apertura vince un ordine al rialzo; se è sotto, vince un ordine al ribasso; se è invariato, la puntata viene restituita.',
    ],
    secondPayouts: [
      'Pagamenti',
      'Una vincita paga il tasso del periodo oltre alla puntata. Una perdita fa perdere la puntata.',
    ],
    contractMargin: [
      'Margine e leva',
      'Il margine è il valore della posizione diviso per la leva. Una posizione viene liquidata quando la sua perdita raggiunge il suo margine.',
    ],
    contractFees: [
      'Commissioni',
      "L'apertura e la chiusura di una posizione costano ciascuna lo 0.1% del suo valore.",
    ],
  },
  pl: {
    secondSettlement: [
      'Jak rozliczane są kontrakty sekundowe',
      'Twoja stawka jest blokowana do końca okresu. Jeśli cena jest wtedy wyższa niż cena otwarcia, wygrywa zlecenie na wzrost; jeśli niższa, wygrywa zlecenie na spadek; jeśli się nie zmieniła, stawka zostaje zwrócona.',
    ],
    secondPayouts: ['Wypłaty', 'Wygrana wypłaca stopę okresu ponad stawkę. Przegrana oznacza utratę stawki.'],
    contractMargin: [
      'Depozyt i dźwignia',
      'Depozyt to wartość pozycji podzielona przez dźwignię. Pozycja jest likwidowana, gdy jej strata osiągnie wysokość depozytu.',
    ],
    contractFees: ['Opłaty', 'Otwarcie i zamknięcie pozycji kosztują każde 0.1% jej wartości.'],
  },
  ar: {
    secondSettlement: [
      'كيف تُسوّى عقود الثواني',
      'يُحجز مبلغ صفقتك حتى نهاية المدة. فإذا كان السعر حينها أعلى من سعر الافتتاح يربح أمر الصعود، وإذا كان أدنى يربح أمر الهبوط، وإذا لم يتغير يُعاد إليك المبلغ.',
    ],
    secondPayouts: [
      'العوائد',
      'عند الربح تحصل على عائد بنسبة المدة فوق مبلغ الصفقة. وعند الخسارة تفقد مبلغ الصفقة.',
    ],
    contractMargin: [
      'الهامش والرافعة المالية',
      'الهامش هو قيمة المركز مقسومة على الرافعة المالية. يُصفّى المركز عندما تبلغ خسارته قيمة هامشه.',
    ],
    contractFees: ['الرسوم', 'يكلّف كلٌّ من فتح المركز وإغلاقه 0.1% من قيمته.'],
  },
  da: {
    secondSettlement: [
      'Sådan afregnes sekundkontrakter',
      'Din indsats holdes tilbage, til perioden slutter. Ligger kursen da over åbningskursen, vinder en op-ordre; ligger den under, vinder en ned-ordre; er den uændret, får du indsatsen tilbage.',
    ],
    secondPayouts: [
      'Udbetalinger',
      'En gevinst udbetaler periodens sats oven i indsatsen. Ved et tab går indsatsen tabt.',
    ],
    contractMargin: [
      'Sikkerhedsstillelse og gearing',
      'Sikkerhedsstillelsen er positionens værdi divideret med gearingen. En position likvideres, når dens tab når dens sikkerhedsstillelse.',
    ],
    contractFees: ['Gebyrer', 'Åbning og lukning af en position koster hver 0.1 % af dens værdi.'],
  },
  tr: {
    secondSettlement: [
      'Saniye kontratları nasıl sonuçlanır',
      'Yatırım tutarınız dönem sona erene kadar bloke edilir. O anda fiyat açılış fiyatının üzerindeyse yükseliş emri, altındaysa düşüş emri kazanır; fiyat değişmemişse yatırım tutarı iade edilir.',
    ],
    secondPayouts: [
      'Ödemeler',
      'Kazanan emir, yatırım tutarının üzerine dönemin oranı kadar ödeme alır. Kaybeden emirde yatırım tutarı kaybedilir.',
    ],
    contractMargin: [
      'Teminat ve kaldıraç',
      'Teminat, pozisyon değerinin kaldıraca bölünmesiyle bulunur. Bir pozisyon, zararı teminatına ulaştığında tasfiye edilir.',
    ],
    contractFees: [
      'Ücretler',
      "Bir pozisyonun açılışı ve kapanışı için ayrı ayrı değerinin %0.1'i kadar ücret alınır.",
    ],
  },
}
