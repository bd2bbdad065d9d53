import type { Article } from '@tradegate/shared'
import { inLanguage, type InEveryLanguage, type Text } from './languages'

// The option rules in every bundle language: the rules call answers in the language the request names
// (the client's language header), in English for any other.

const RULES: InEveryLanguage<readonly Text[]> = {
  en: [
    [
      'What you buy',
      'Each option is a European call or put on the price of its coin in USDT, bought from the exchange. A call pays when the price at expiry is above the strike, a put when it is below. Options are only bought, never sold short, so you can never lose more than you paid.',
    ],
    [
      'Premium and fee',
      "The premium per unit is the Black-Scholes value at the current price, with the volatility and rate shown beside the chain and the time left to expiry. You pay the premium times the quantity plus the coin's fee: a percent of the premium, or a fixed USDT amount per order. Your order names the most per unit you accept; if the premium is above it when the order arrives, the order is refused and nothing is charged.",
    ],
    [
      'Expiry and settlement',
      'Expiries roll: the next quarter hour, the next hour and the next midnight UTC. At expiry every position settles by itself against the market price: a call pays the quantity times the price above the strike, a put the quantity times the price below it, in USDT to your main account. An option that ends out of the money expires worthless.',
    ],
    [
      'Selling back before expiry',
      "Until expiry you can sell an open position back to the exchange at its bid: the Black-Scholes value at the current price, worked out as for the premium, less 3%. You receive the bid times the quantity less the coin's fee, in USDT to your main account. Your sale names the least per unit you accept; if the bid is below it when the sale arrives, the sale is refused and nothing changes. An option worth nothing now has no bid and cannot be sold. A position sold back is closed: it is listed as sold and does not settle at expiry.",
    ],
    [
      'Quantities and balance',
      "Quantities are whole multiples of the coin's lot size, up to the maximum shown on the order ticket. The USDT in your main account must cover the premium and the fee.",
    ],
  ],
  zh: [
    [
      '您买入的是什么',
      '每个期权都是以 USDT 计价、以其币种价格为标的的欧式看涨或看跌期权，向交易所买入。到期时价格高于行权价，看涨期权获得赔付；低于行权价，看跌期权获得赔付。期权只能买入，不能卖空，因此您的损失永远不会超过您支付的金额。',
    ],
    [
      '权利金与手续费',
      '每单位权利金是按当前价格、期权链旁显示的波动率和利率以及距到期的剩余时间计算的 Black-Scholes 价值。您支付权利金乘以数量，再加上该币种的手续费：权利金的一定百分比，或每笔订单固定的 USDT 金额。订单会写明您接受的每单位最高价；若订单到达时权利金高于该价，订单将被拒绝，不收取任何费用。',
    ],
    [
      '到期与结算',
      '到期日滚动设置：下一个整刻钟、下一个整点和下一个 UTC 午夜。到期时每个持仓都会按市场价格自动结算：看涨期权按价格高出行权价的部分乘以数量赔付，看跌期权按价格低于行权价的部分乘以数量赔付，以 USDT 打入您的主账户。到期时处于价外的期权将作废，价值为零。',
    ],
    [
      '到期前卖回',
      '到期前，您可以按买价将持有中的期权卖回给交易所：买价是按当前价格计算的 Black-Scholes 价值（算法与权利金相同）减去 3%。您获得买价乘以数量，再扣除该币种的手续费，以 USDT 打入您的主账户。卖出时会写明您接受的每单位最低价；若卖出请求到达时买价低于该价，卖出将被拒绝，一切不变。当前毫无价值的期权没有买价，无法卖出。卖回的持仓即告结束：它显示为已卖出，到期时不再结算。',
    ],
    [
      '数量与余额',
      '数量必须是该币种每手数量的整数倍，最多不超过下单面板上显示的上限。您主账户中的 USDT 必须足以支付权利金和手续费。',
    ],
  ],
  ja: [
    [
      '購入するもの',
      '各オプションは、銘柄の USDT 建て価格を対象とするヨーロピアン型のコールまたはプットで、取引所から購入します。満期時の価格が権利行使価格を上回ればコールが、下回ればプットが支払いを受けます。オプションは購入のみで売り建てはできないため、支払った額を超えて損をすることはありません。',
    ],
    [
      'プレミアムと手数料',
      '1 単位あたりのプレミアムは、現在の価格、チェーンの横に表示されるボラティリティと金利、満期までの残り時間から求めるブラック・ショールズ価値です。プレミアムに数量を掛けた額と、銘柄の手数料（プレミアムに対する割合、または 1 注文あたりの固定 USDT 額）を支払います。注文には受け入れる 1 単位あたりの上限を指定します。注文の到着時にプレミアムがそれを上回っていれば注文は拒否され、何も請求されません。',
    ],
    [
      '満期と決済',
      '満期は次の 15 分の区切り、次の正時、次の UTC の午前 0 時と順に更新されます。満期になると各ポジションは市場価格で自動的に決済されます。コールは価格が権利行使価格を上回った分に数量を掛けた額、プットは下回った分に数量を掛けた額が、USDT でメインアカウントに支払われます。アウト・オブ・ザ・マネーで満期を迎えたオプションは無価値で消滅します。',
    ],
    [
      '満期前の売り戻し',
      '満期までは、保有中のポジションを買値で取引所に売り戻せます。買値は、プレミアムと同じ方法で求めた現在価格でのブラック・ショールズ価値から 3% を差し引いた額です。買値に数量を掛けた額から銘柄の手数料を差し引いた額が、USDT でメインアカウントに支払われます。売却には受け入れる 1 単位あたりの下限を指定します。売却の到着時に買値がそれを下回っていれば売却は拒否され、何も変わりません。現在価値のないオプションには買値がなく、売却できません。売り戻したポジションは終了し、売却済みとして表示され、満期に決済されることはありません。',
    ],
    [
      '数量と残高',
      '数量は銘柄の単位数量の整数倍で、注文画面に表示される上限までです。メインアカウントの USDT でプレミアムと手数料をまかなえる必要があります。',
    ],
  ],
  ko: [
    [
      '매수하는 상품',
      '각 옵션은 코인의 USDT 가격을 기초로 하는 유럽형 콜 또는 풋이며 거래소로부터 매수합니다. 만기 가격이 행사가보다 높으면 콜이, 낮으면 풋이 지급을 받습니다. 옵션은 매수만 가능하고 공매도할 수 없으므로 지불한 금액보다 더 많이 잃을 수 없습니다.',
    ],
    [
      '프리미엄과 수수료',
      '단위당 프리미엄은 현재 가격, 체인 옆에 표시된 변동성과 금리, 만기까지 남은 시간으로 계산한 블랙-숄즈 가치입니다. 프리미엄에 수량을 곱한 금액과 코인의 수수료(프리미엄의 일정 비율 또는 주문당 고정 USDT 금액)를 지불합니다. 주문에는 허용하는 단위당 최대 가격이 지정되며, 주문이 도착했을 때 프리미엄이 그보다 높으면 주문이 거부되고 아무것도 청구되지 않습니다.',
    ],
    [
      '만기와 정산',
      '만기는 다음 15분 단위, 다음 정시, 다음 UTC 자정으로 계속 이어집니다. 만기가 되면 모든 포지션이 시장 가격으로 자동 정산됩니다. 콜은 가격이 행사가를 넘은 만큼에 수량을 곱한 금액을, 풋은 가격이 행사가에 못 미친 만큼에 수량을 곱한 금액을 USDT로 메인 계정에 지급합니다. 외가격으로 끝난 옵션은 가치 없이 소멸합니다.',
    ],
    [
      '만기 전 되팔기',
      '만기 전까지 보유 중인 포지션을 매수호가로 거래소에 되팔 수 있습니다. 매수호가는 프리미엄과 같은 방식으로 계산한 현재 가격의 블랙-숄즈 가치에서 3%를 뺀 금액입니다. 매수호가에 수량을 곱한 금액에서 코인의 수수료를 뺀 금액이 USDT로 메인 계정에 지급됩니다. 매도 시 허용하는 단위당 최저 가격을 지정하며, 매도 요청이 도착했을 때 매수호가가 그보다 낮으면 매도가 거부되고 아무것도 바뀌지 않습니다. 지금 가치가 없는 옵션은 매수호가가 없어 팔 수 없습니다. 되판 포지션은 종료되어 매도됨으로 표시되며 만기에 정산되지 않습니다.',
    ],
    [
      '수량과 잔액',
      '수량은 코인의 거래 단위의 정수배여야 하며 주문 창에 표시된 최대치까지 가능합니다. 메인 계정의 USDT로 프리미엄과 수수료를 충당할 수 있어야 합니다.',
    ],
  ],
  th: [
    [
      'สิ่งที่คุณซื้อ',
      'ออปชันแต่ละตัวเป็นคอลหรือพุทแบบยุโรปบนราคาของเหรียญเป็น USDT ซึ่งซื้อจากตลาด คอลจะได้รับเงินเมื่อราคา ณ วันหมดอายุสูงกว่าราคาใช้สิทธิ พุทจะได้รับเงินเมื่อต่ำกว่า ออปชันซื้อได้อย่างเดียว ขายชอร์ตไม่ได้ คุณจึงไม่มีทางขาดทุนเกินกว่าที่จ่ายไป',
    ],
    [
      'พรีเมียมและค่าธรรมเนียม',
      'พรีเมียมต่อหน่วยคือมูลค่าแบล็ก-โชลส์ที่ราคาปัจจุบัน โดยใช้ความผันผวนและอัตราดอกเบี้ยที่แสดงข้างตารางออปชันและเวลาที่เหลือจนหมดอายุ คุณจ่ายพรีเมียมคูณจำนวน บวกค่าธรรมเนียมของเหรียญ ซึ่งเป็นเปอร์เซ็นต์ของพรีเมียมหรือจำนวน USDT คงที่ต่อคำสั่ง คำสั่งของคุณระบุราคาสูงสุดต่อหน่วยที่คุณยอมรับ หากพรีเมียมสูงกว่านั้นเมื่อคำสั่งมาถึง คำสั่งจะถูกปฏิเสธและไม่มีการเรียกเก็บเงิน',
    ],
    [
      'การหมดอายุและการชำระ',
      'วันหมดอายุหมุนเวียนต่อเนื่อง ได้แก่ ทุกสิบห้านาทีถัดไป ชั่วโมงถัดไป และเที่ยงคืน UTC ถัดไป เมื่อหมดอายุ ทุกสถานะจะชำระเองตามราคาตลาด คอลจ่ายจำนวนคูณส่วนที่ราคาสูงกว่าราคาใช้สิทธิ พุทจ่ายจำนวนคูณส่วนที่ราคาต่ำกว่า เป็น USDT เข้าบัญชีหลักของคุณ ออปชันที่หมดอายุโดยไม่มีมูลค่าจะสิ้นสุดไปเปล่า ๆ',
    ],
    [
      'การขายคืนก่อนหมดอายุ',
      'ก่อนหมดอายุ คุณขายสถานะที่เปิดอยู่คืนให้ตลาดได้ที่ราคาเสนอซื้อ ซึ่งคือมูลค่าแบล็ก-โชลส์ที่ราคาปัจจุบัน คำนวณแบบเดียวกับพรีเมียม หักออก 3% คุณจะได้รับราคาเสนอซื้อคูณจำนวน หักค่าธรรมเนียมของเหรียญ เป็น USDT เข้าบัญชีหลักของคุณ การขายของคุณระบุราคาต่ำสุดต่อหน่วยที่คุณยอมรับ หากราคาเสนอซื้อต่ำกว่านั้นเมื่อคำขอขายมาถึง การขายจะถูกปฏิเสธและไม่มีอะไรเปลี่ยนแปลง ออปชันที่ไม่มีมูลค่าในขณะนี้ไม่มีราคาเสนอซื้อและขายไม่ได้ สถานะที่ขายคืนแล้วจะปิดลง แสดงว่าขายแล้ว และจะไม่ชำระเมื่อหมดอายุ',
    ],
    [
      'จำนวนและยอดเงิน',
      'จำนวนต้องเป็นผลคูณเต็มของขนาดล็อตของเหรียญ และไม่เกินค่าสูงสุดที่แสดงในหน้าคำสั่ง USDT ในบัญชีหลักของคุณต้องเพียงพอสำหรับพรีเมียมและค่าธรรมเนียม',
    ],
  ],
  vi: [
    [
      'Bạn mua gì',
      'Mỗi quyền chọn là một quyền chọn mua hoặc bán kiểu châu Âu trên giá của đồng coin tính bằng USDT, mua từ sàn. Quyền chọn mua được trả tiền khi giá lúc đáo hạn cao hơn giá thực hiện, quyền chọn bán khi giá thấp hơn. Quyền chọn chỉ được mua, không được bán khống, nên bạn không bao giờ mất nhiều hơn số đã trả.',
    ],
    [
      'Phí quyền chọn và phí giao dịch',
      'Phí quyền chọn mỗi đơn vị là giá trị Black-Scholes tại giá hiện tại, với độ biến động và lãi suất hiển thị cạnh chuỗi và thời gian còn lại đến đáo hạn. Bạn trả phí quyền chọn nhân số lượng cộng phí của đồng coin: một tỷ lệ phần trăm của phí quyền chọn hoặc một số USDT cố định mỗi lệnh. Lệnh của bạn ghi mức tối đa mỗi đơn vị bạn chấp nhận; nếu phí cao hơn mức đó khi lệnh đến, lệnh bị từ chối và không thu gì.',
    ],
    [
      'Đáo hạn và thanh toán',
      'Các kỳ đáo hạn nối tiếp nhau: mốc mười lăm phút kế tiếp, giờ kế tiếp và nửa đêm UTC kế tiếp. Khi đáo hạn, mọi vị thế tự thanh toán theo giá thị trường: quyền chọn mua trả số lượng nhân phần giá vượt giá thực hiện, quyền chọn bán trả số lượng nhân phần giá thấp hơn, bằng USDT vào tài khoản chính của bạn. Quyền chọn kết thúc ngoài tiền sẽ hết hạn vô giá trị.',
    ],
    [
      'Bán lại trước đáo hạn',
      'Trước khi đáo hạn, bạn có thể bán lại vị thế đang mở cho sàn theo giá mua: giá trị Black-Scholes tại giá hiện tại, tính như phí quyền chọn, trừ đi 3%. Bạn nhận giá mua nhân số lượng trừ phí của đồng coin, bằng USDT vào tài khoản chính của bạn. Lệnh bán của bạn ghi mức tối thiểu mỗi đơn vị bạn chấp nhận; nếu giá mua thấp hơn mức đó khi lệnh bán đến, lệnh bị từ chối và không có gì thay đổi. Quyền chọn hiện không còn giá trị thì không có giá mua và không bán được. Vị thế đã bán lại sẽ được đóng: nó hiển thị là đã bán và không thanh toán khi đáo hạn.',
    ],
    [
      'Số lượng và số dư',
      'Số lượng phải là bội số nguyên của kích thước lô của đồng coin, tối đa bằng mức hiển thị trên phiếu lệnh. Số USDT trong tài khoản chính phải đủ trả phí quyền chọn và phí giao dịch.',
    ],
  ],
  pt: [
    [
      'O que você compra',
      'Cada opção é uma call ou put europeia sobre o preço da moeda em USDT, comprada da corretora. Uma call paga quando o preço no vencimento está acima do preço de exercício; uma put, quando está abaixo. As opções são apenas compradas, nunca vendidas a descoberto, por isso você nunca perde mais do que pagou.',
    ],
    [
      'Prêmio e taxa',
      'O prêmio por unidade é o valor de Black-Scholes ao preço atual, com a volatilidade e a taxa de juros mostradas ao lado da cadeia e o tempo até o vencimento. Você paga o prêmio vezes a quantidade mais a taxa da moeda: uma porcentagem do prêmio ou um valor fixo em USDT por ordem. Sua ordem indica o máximo por unidade que você aceita; se o prêmio estiver acima disso quando a ordem chegar, ela é recusada e nada é cobrado.',
    ],
    [
      'Vencimento e liquidação',
      'Os vencimentos são contínuos: o próximo quarto de hora, a próxima hora e a próxima meia-noite UTC. No vencimento, cada posição é liquidada automaticamente ao preço de mercado: uma call paga a quantidade vezes o quanto o preço supera o preço de exercício, uma put a quantidade vezes o quanto fica abaixo, em USDT na sua conta principal. Uma opção que termina fora do dinheiro vence sem valor.',
    ],
    [
      'Revenda antes do vencimento',
      'Até o vencimento, você pode vender uma posição aberta de volta à corretora pelo preço de compra: o valor de Black-Scholes ao preço atual, calculado como o prêmio, menos 3%. Você recebe o preço de compra vezes a quantidade menos a taxa da moeda, em USDT na sua conta principal. Sua venda indica o mínimo por unidade que você aceita; se o preço de compra estiver abaixo disso quando a venda chegar, ela é recusada e nada muda. Uma opção que agora não vale nada não tem preço de compra e não pode ser vendida. Uma posição revendida fica encerrada: aparece como vendida e não é liquidada no vencimento.',
    ],
    [
      'Quantidades e saldo',
      'As quantidades são múltiplos inteiros do lote da moeda, até o máximo mostrado no boleto da ordem. O USDT da sua conta principal precisa cobrir o prêmio e a taxa.',
    ],
  ],
  es: [
    [
      'Qué compras',
      'Cada opción es una call o put europea sobre el precio de la moneda en USDT, comprada al exchange. Una call paga cuando el precio al vencimiento está por encima del precio de ejercicio; una put, cuando está por debajo. Las opciones solo se compran, nunca se venden en corto, así que nunca puedes perder más de lo que pagaste.',
    ],
    [
      'Prima y comisión',
      'La prima por unidad es el valor de Black-Scholes al precio actual, con la volatilidad y el tipo de interés que se muestran junto a la cadena y el tiempo que queda hasta el vencimiento. Pagas la prima por la cantidad más la comisión de la moneda: un porcentaje de la prima o un importe fijo en USDT por orden. Tu orden indica lo máximo por unidad que aceptas; si la prima está por encima cuando llega la orden, se rechaza y no se cobra nada.',
    ],
    [
      'Vencimiento y liquidación',
      'Los vencimientos se renuevan: el siguiente cuarto de hora, la siguiente hora y la siguiente medianoche UTC. Al vencer, cada posición se liquida sola al precio de mercado: una call paga la cantidad por lo que el precio supera el de ejercicio, una put la cantidad por lo que queda por debajo, en USDT en tu cuenta principal. Una opción que termina fuera del dinero vence sin valor.',
    ],
    [
      'Reventa antes del vencimiento',
      'Hasta el vencimiento puedes revender una posición abierta al exchange a su precio de compra: el valor de Black-Scholes al precio actual, calculado como la prima, menos un 3 %. Recibes el precio de compra por la cantidad menos la comisión de la moneda, en USDT en tu cuenta principal. Tu venta indica lo mínimo por unidad que aceptas; si el precio de compra está por debajo cuando llega la venta, se rechaza y no cambia nada. Una opción que ahora no vale nada no tiene precio de compra y no se puede vender. Una posición revendida queda cerrada: aparece como vendida y no se liquida al vencimiento.',
    ],
    [
      'Cantidades y saldo',
      'Las cantidades son múltiplos enteros del lote de la moneda, hasta el máximo que muestra la ficha de la orden. El USDT de tu cuenta principal debe cubrir la prima y la comisión.',
    ],
  ],
  fr: [
    [
      'Ce que vous achetez',
      "Chaque option est un call ou un put européen sur le prix de sa crypto-monnaie en USDT, acheté à la plateforme. Un call paie si le prix à l'échéance dépasse le prix d'exercice, un put s'il est en dessous. Les options s'achètent uniquement, jamais à découvert : vous ne pouvez donc jamais perdre plus que ce que vous avez payé.",
    ],
    [
      'Prime et frais',
      "La prime par unité est la valeur de Black-Scholes au prix actuel, avec la volatilité et le taux affichés à côté de la chaîne et le temps restant avant l'échéance. Vous payez la prime multipliée par la quantité, plus les frais de la crypto-monnaie : un pourcentage de la prime ou un montant fixe en USDT par ordre. Votre ordre indique le maximum par unité que vous acceptez ; si la prime le dépasse à l'arrivée de l'ordre, celui-ci est refusé et rien n'est prélevé.",
    ],
    [
      'Échéance et règlement',
      "Les échéances se succèdent : le prochain quart d'heure, la prochaine heure et le prochain minuit UTC. À l'échéance, chaque position est réglée automatiquement au prix du marché : un call verse la quantité multipliée par l'écart du prix au-dessus du prix d'exercice, un put la quantité multipliée par l'écart en dessous, en USDT sur votre compte principal. Une option qui finit hors de la monnaie expire sans valeur.",
    ],
    [
      "Revente avant l'échéance",
      "Jusqu'à l'échéance, vous pouvez revendre une position ouverte à la plateforme à son prix acheteur : la valeur de Black-Scholes au prix actuel, calculée comme la prime, moins 3 %. Vous recevez le prix acheteur multiplié par la quantité, moins les frais de la crypto-monnaie, en USDT sur votre compte principal. Votre vente indique le minimum par unité que vous acceptez ; si le prix acheteur est inférieur à l'arrivée de la vente, celle-ci est refusée et rien ne change. Une option qui ne vaut plus rien n'a pas de prix acheteur et ne peut pas être vendue. Une position revendue est close : elle apparaît comme vendue et n'est pas réglée à l'échéance.",
    ],
    [
      'Quantités et solde',
      "Les quantités sont des multiples entiers du lot de la crypto-monnaie, jusqu'au maximum indiqué sur le ticket d'ordre. Les USDT de votre compte principal doivent couvrir la prime et les frais.",
    ],
  ],
  ru: [
    [
      'Что вы покупаете',
      'Каждый опцион — европейский колл или пут на цену монеты в USDT, купленный у биржи. Колл приносит выплату, если цена на экспирации выше страйка, пут — если ниже. Опционы можно только покупать, но не продавать без покрытия, поэтому вы никогда не потеряете больше, чем заплатили.',
    ],
    [
      'Премия и комиссия',
      'Премия за единицу — это стоимость по Блэку — Шоулзу при текущей цене, с волатильностью и ставкой, указанными рядом с цепочкой, и оставшимся до экспирации временем. Вы платите премию, умноженную на количество, плюс комиссию монеты: процент от премии или фиксированную сумму в USDT за заявку. В заявке указан максимум за единицу, который вы принимаете; если к моменту поступления заявки премия выше, заявка отклоняется и ничего не списывается.',
    ],
    [
      'Экспирация и расчёт',
      'Экспирации идут одна за другой: ближайшая четверть часа, ближайший час и ближайшая полночь по UTC. На экспирации каждая позиция рассчитывается автоматически по рыночной цене: колл выплачивает количество, умноженное на превышение цены над страйком, пут — количество, умноженное на то, насколько цена ниже страйка, в USDT на ваш основной счёт. Опцион, завершившийся вне денег, истекает без стоимости.',
    ],
    [
      'Обратная продажа до экспирации',
      'До экспирации вы можете продать открытую позицию обратно бирже по цене покупки: стоимости по Блэку — Шоулзу при текущей цене, рассчитанной как премия, за вычетом 3%. Вы получаете цену покупки, умноженную на количество, за вычетом комиссии монеты, в USDT на ваш основной счёт. В продаже указан минимум за единицу, который вы принимаете; если к моменту поступления продажи цена покупки ниже, продажа отклоняется и ничего не меняется. У опциона, который сейчас ничего не стоит, нет цены покупки, и продать его нельзя. Проданная обратно позиция закрыта: она показана как проданная и не рассчитывается на экспирации.',
    ],
    [
      'Количество и баланс',
      'Количество должно быть целым числом лотов монеты, не больше максимума, указанного в заявке. USDT на вашем основном счёте должно хватать на премию и комиссию.',
    ],
  ],
  de: [
    [
      'Was Sie kaufen',
      'Jede Option ist ein europäischer Call oder Put auf den Preis ihrer Währung in USDT, gekauft von der Börse. Ein Call zahlt, wenn der Preis bei Fälligkeit über dem Basispreis liegt, ein Put, wenn er darunter liegt. Optionen werden nur gekauft, nie leer verkauft, daher können Sie nie mehr verlieren, als Sie bezahlt haben.',
    ],
    [
      'Prämie und Gebühr',
      'Die Prämie pro Einheit ist der Black-Scholes-Wert zum aktuellen Preis, mit der neben der Kette angezeigten Volatilität und dem Zinssatz sowie der Restlaufzeit. Sie zahlen die Prämie mal der Menge plus die Gebühr der Währung: einen Prozentsatz der Prämie oder einen festen USDT-Betrag pro Order. Ihre Order nennt das Höchste pro Einheit, das Sie akzeptieren; liegt die Prämie beim Eingang der Order darüber, wird sie abgelehnt und nichts berechnet.',
    ],
    [
      'Fälligkeit und Abrechnung',
      'Die Fälligkeiten rollen: die nächste Viertelstunde, die nächste volle Stunde und die nächste Mitternacht UTC. Bei Fälligkeit wird jede Position automatisch zum Marktpreis abgerechnet: Ein Call zahlt die Menge mal den Betrag, um den der Preis über dem Basispreis liegt, ein Put die Menge mal den Betrag darunter, in USDT auf Ihr Hauptkonto. Eine Option, die aus dem Geld endet, verfällt wertlos.',
    ],
    [
      'Rückverkauf vor Fälligkeit',
      'Bis zur Fälligkeit können Sie eine offene Position zum Geldkurs an die Börse zurückverkaufen: dem Black-Scholes-Wert zum aktuellen Preis, berechnet wie die Prämie, abzüglich 3 %. Sie erhalten den Geldkurs mal der Menge abzüglich der Gebühr der Währung, in USDT auf Ihr Hauptkonto. Ihr Verkauf nennt das Mindeste pro Einheit, das Sie akzeptieren; liegt der Geldkurs beim Eingang des Verkaufs darunter, wird er abgelehnt und nichts ändert sich. Eine Option, die jetzt nichts wert ist, hat keinen Geldkurs und kann nicht verkauft werden. Eine zurückverkaufte Position ist geschlossen: Sie erscheint als verkauft und wird bei Fälligkeit nicht abgerechnet.',
    ],
    [
      'Mengen und Guthaben',
      'Mengen sind ganze Vielfache der Losgröße der Währung, bis zum im Orderformular angezeigten Höchstwert. Das USDT auf Ihrem Hauptkonto muss Prämie und Gebühr decken.',
    ],
  ],
  it: [
    [
      'Che cosa compri',
      'Ogni opzione è una call o una put europea sul prezzo della sua moneta in USDT, acquistata dalla piattaforma. Una call paga quando il prezzo alla scadenza è sopra il prezzo di esercizio, una put quando è sotto. Le opzioni si possono solo comprare, mai vendere allo scoperto, quindi non puoi mai perdere più di quanto hai pagato.',
    ],
    [
      'Premio e commissione',
      "Il premio per unità è il valore di Black-Scholes al prezzo attuale, con la volatilità e il tasso mostrati accanto alla catena e il tempo che manca alla scadenza. Paghi il premio per la quantità più la commissione della moneta: una percentuale del premio o un importo fisso in USDT per ordine. Il tuo ordine indica il massimo per unità che accetti; se all'arrivo dell'ordine il premio è più alto, l'ordine viene rifiutato e non viene addebitato nulla.",
    ],
    [
      'Scadenza e regolamento',
      "Le scadenze si rinnovano: il prossimo quarto d'ora, la prossima ora e la prossima mezzanotte UTC. Alla scadenza ogni posizione viene regolata da sola al prezzo di mercato: una call paga la quantità per quanto il prezzo supera il prezzo di esercizio, una put la quantità per quanto è inferiore, in USDT sul tuo conto principale. Un'opzione che termina fuori dal denaro scade senza valore.",
    ],
    [
      'Rivendita prima della scadenza',
      "Fino alla scadenza puoi rivendere una posizione aperta alla piattaforma al prezzo denaro: il valore di Black-Scholes al prezzo attuale, calcolato come il premio, meno il 3%. Ricevi il prezzo denaro per la quantità meno la commissione della moneta, in USDT sul tuo conto principale. La tua vendita indica il minimo per unità che accetti; se all'arrivo della vendita il prezzo denaro è più basso, la vendita viene rifiutata e non cambia nulla. Un'opzione che ora non vale nulla non ha prezzo denaro e non si può vendere. Una posizione rivenduta è chiusa: compare come venduta e non viene regolata alla scadenza.",
    ],
    [
      'Quantità e saldo',
      "Le quantità sono multipli interi del lotto della moneta, fino al massimo indicato nel modulo d'ordine. Gli USDT del tuo conto principale devono coprire premio e commissione.",
    ],
  ],
  pl: [
    [
      'Co kupujesz',
      'Każda opcja to europejska opcja kupna lub sprzedaży na cenę monety w USDT, kupowana od giełdy. Opcja kupna wypłaca, gdy cena w dniu wygaśnięcia jest wyższa od ceny wykonania, opcja sprzedaży, gdy jest niższa. Opcje można tylko kupować, nigdy wystawiać, więc nigdy nie stracisz więcej, niż zapłaciłeś.',
    ],
    [
      'Premia i opłata',
      'Premia za jednostkę to wartość Blacka-Scholesa przy bieżącej cenie, ze zmiennością i stopą pokazanymi obok łańcucha oraz czasem pozostałym do wygaśnięcia. Płacisz premię razy ilość plus opłatę monety: procent premii albo stałą kwotę USDT za zlecenie. Twoje zlecenie podaje najwyższą akceptowaną cenę za jednostkę; jeśli w chwili nadejścia zlecenia premia jest wyższa, zlecenie zostaje odrzucone i nic nie jest pobierane.',
    ],
    [
      'Wygaśnięcie i rozliczenie',
      'Terminy wygaśnięcia następują po sobie: najbliższy kwadrans, najbliższa pełna godzina i najbliższa północ UTC. W chwili wygaśnięcia każda pozycja rozlicza się sama po cenie rynkowej: opcja kupna wypłaca ilość razy nadwyżkę ceny nad ceną wykonania, opcja sprzedaży ilość razy różnicę poniżej niej, w USDT na Twoje konto główne. Opcja, która kończy się poza pieniądzem, wygasa bezwartościowo.',
    ],
    [
      'Odsprzedaż przed wygaśnięciem',
      'Do chwili wygaśnięcia możesz odsprzedać otwartą pozycję giełdzie po cenie kupna: wartości Blacka-Scholesa przy bieżącej cenie, liczonej jak premia, pomniejszonej o 3%. Otrzymujesz cenę kupna razy ilość minus opłata monety, w USDT na Twoje konto główne. Twoja sprzedaż podaje najniższą akceptowaną cenę za jednostkę; jeśli w chwili nadejścia sprzedaży cena kupna jest niższa, sprzedaż zostaje odrzucona i nic się nie zmienia. Opcja, która teraz nic nie jest warta, nie ma ceny kupna i nie można jej sprzedać. Odsprzedana pozycja jest zamknięta: widnieje jako sprzedana i nie rozlicza się przy wygaśnięciu.',
    ],
    [
      'Ilości i saldo',
      'Ilości to całkowite wielokrotności lotu monety, do maksimum pokazanego w formularzu zlecenia. USDT na Twoim koncie głównym musi pokryć premię i opłatę.',
    ],
  ],
  ar: [
    [
      'ما الذي تشتريه',
      'كل خيار هو خيار شراء أو بيع أوروبي على سعر عملته بالـ USDT، تشتريه من المنصة. يدفع خيار الشراء عندما يكون السعر عند الاستحقاق أعلى من سعر التنفيذ، ويدفع خيار البيع عندما يكون أدنى منه. الخيارات تُشترى فقط ولا تُباع على المكشوف، لذلك لا يمكن أن تخسر أكثر مما دفعت.',
    ],
    [
      'العلاوة والرسوم',
      'العلاوة للوحدة هي قيمة بلاك-شولز عند السعر الحالي، مع التقلب والفائدة المعروضين بجانب السلسلة والوقت المتبقي حتى الاستحقاق. تدفع العلاوة مضروبة في الكمية مضافًا إليها رسوم العملة: نسبة من العلاوة أو مبلغ ثابت بالـ USDT لكل أمر. يحدد أمرك أقصى سعر للوحدة تقبله؛ فإذا كانت العلاوة أعلى منه عند وصول الأمر يُرفض الأمر ولا يُخصم شيء.',
    ],
    [
      'الاستحقاق والتسوية',
      'تتوالى مواعيد الاستحقاق: ربع الساعة التالي، والساعة التالية، ومنتصف الليل التالي بتوقيت UTC. عند الاستحقاق تُسوّى كل المراكز تلقائيًا بسعر السوق: يدفع خيار الشراء الكمية مضروبة في مقدار تجاوز السعر لسعر التنفيذ، ويدفع خيار البيع الكمية مضروبة في مقدار انخفاضه عنه، بالـ USDT إلى حسابك الرئيسي. الخيار الذي ينتهي خارج المال ينقضي بلا قيمة.',
    ],
    [
      'إعادة البيع قبل الاستحقاق',
      'حتى الاستحقاق يمكنك إعادة بيع مركز مفتوح إلى المنصة بسعر العرض: وهو قيمة بلاك-شولز عند السعر الحالي، محسوبة كما تُحسب العلاوة، ناقص 3%. تستلم سعر العرض مضروبًا في الكمية مطروحًا منه رسوم العملة، بالـ USDT في حسابك الرئيسي. يحدد بيعك أدنى سعر للوحدة تقبله؛ فإذا كان سعر العرض أدنى منه عند وصول البيع يُرفض البيع ولا يتغير شيء. الخيار الذي لا قيمة له الآن ليس له سعر عرض ولا يمكن بيعه. المركز المُعاد بيعه يُغلق: يظهر على أنه مُباع ولا يُسوّى عند الاستحقاق.',
    ],
    [
      'الكميات والرصيد',
      'يجب أن تكون الكميات مضاعفات صحيحة لحجم وحدة العملة، حتى الحد الأقصى المعروض في نموذج الأمر. يجب أن يغطي رصيد USDT في حسابك الرئيسي العلاوة والرسوم.',
    ],
  ],
  tr: [
    [
      'Ne satın alıyorsunuz',
      'Her opsiyon, coinin USDT cinsinden fiyatı üzerine Avrupa tipi bir alım ya da satım opsiyonudur ve borsadan satın alınır. Alım opsiyonu vade sonundaki fiyat kullanım fiyatının üstündeyse, satım opsiyonu altındaysa ödeme yapar. Opsiyonlar yalnızca satın alınır, açığa satılmaz; bu yüzden ödediğinizden fazlasını asla kaybedemezsiniz.',
    ],
    [
      'Prim ve ücret',
      'Birim başına prim, güncel fiyatta, zincirin yanında gösterilen oynaklık ve faizle ve vadeye kalan süreyle hesaplanan Black-Scholes değeridir. Primi miktarla çarpıp coinin ücretini eklersiniz: primin bir yüzdesi ya da emir başına sabit bir USDT tutarı. Emriniz kabul ettiğiniz birim başına en yüksek tutarı belirtir; emir ulaştığında prim bunun üstündeyse emir reddedilir ve hiçbir şey tahsil edilmez.',
    ],
    [
      'Vade ve uzlaşma',
      'Vadeler sürekli yenilenir: bir sonraki çeyrek saat, bir sonraki saat ve bir sonraki UTC gece yarısı. Vade geldiğinde her pozisyon piyasa fiyatından kendiliğinden kapanır: alım opsiyonu miktar çarpı fiyatın kullanım fiyatını aşan kısmını, satım opsiyonu miktar çarpı altında kalan kısmı USDT olarak ana hesabınıza öder. Parasının dışında biten bir opsiyon değersiz olarak sona erer.',
    ],
    [
      'Vadeden önce geri satış',
      'Vadeye kadar açık bir pozisyonu alış fiyatından borsaya geri satabilirsiniz: prim gibi hesaplanan, güncel fiyattaki Black-Scholes değerinin %3 eksiği. Alış fiyatı çarpı miktardan coinin ücreti düşülür ve kalan USDT olarak ana hesabınıza ödenir. Satışınız kabul ettiğiniz birim başına en düşük tutarı belirtir; satış ulaştığında alış fiyatı bunun altındaysa satış reddedilir ve hiçbir şey değişmez. Şu an değeri olmayan bir opsiyonun alış fiyatı yoktur ve satılamaz. Geri satılan pozisyon kapanır: satıldı olarak listelenir ve vadede uzlaşmaya girmez.',
    ],
    [
      'Miktar ve bakiye',
      'Miktarlar coinin lot büyüklüğünün tam katlarıdır ve emir formunda gösterilen üst sınırı geçemez. Ana hesabınızdaki USDT prim ve ücreti karşılamalıdır.',
    ],
  ],
  da: [
    [
      'Hvad du køber',
      'Hver option er en europæisk købs- eller salgsoption på møntens kurs i USDT, købt af børsen. En købsoption udbetaler, når kursen ved udløb ligger over strikekursen, en salgsoption, når den ligger under. Optioner kan kun købes, aldrig udstedes, så du kan aldrig tabe mere, end du har betalt.',
    ],
    [
      'Præmie og gebyr',
      'Præmien pr. enhed er Black-Scholes-værdien ved den aktuelle kurs med den volatilitet og rente, der vises ved kæden, og den tid, der er tilbage til udløb. Du betaler præmien gange antallet plus møntens gebyr: en procentdel af præmien eller et fast USDT-beløb pr. ordre. Din ordre angiver det højeste pr. enhed, du accepterer; er præmien højere, når ordren ankommer, afvises den, og intet trækkes.',
    ],
    [
      'Udløb og afregning',
      'Udløbene ruller: det næste kvarter, den næste hele time og den næste midnat UTC. Ved udløb afregnes hver position af sig selv til markedskursen: en købsoption udbetaler antallet gange det, kursen ligger over strikekursen, en salgsoption antallet gange det, den ligger under, i USDT til din hovedkonto. En option, der slutter uden for pengene, udløber værdiløs.',
    ],
    [
      'Tilbagesalg før udløb',
      'Indtil udløb kan du sælge en åben position tilbage til børsen til dens bud: Black-Scholes-værdien ved den aktuelle kurs, beregnet som præmien, minus 3 %. Du modtager buddet gange antallet minus møntens gebyr, i USDT til din hovedkonto. Dit salg angiver det laveste pr. enhed, du accepterer; er buddet lavere, når salget ankommer, afvises det, og intet ændres. En option, der ikke er noget værd nu, har intet bud og kan ikke sælges. En position, der er solgt tilbage, er lukket: den vises som solgt og afregnes ikke ved udløb.',
    ],
    [
      'Antal og saldo',
      'Antal er hele multipla af møntens lotstørrelse, op til det maksimum, der vises på ordresedlen. USDT på din hovedkonto skal dække præmie og gebyr.',
    ],
  ],
}

const FIRST_ID = 5

export function optionRulesIn(language: string | undefined): Article[] {
  return inLanguage(RULES, language).map(([title, content], index) => ({
    id: FIRST_ID + index,
    title,
    content,
  }))
}
