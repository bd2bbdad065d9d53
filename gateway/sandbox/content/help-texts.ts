import type { InEveryLanguage, Text } from './languages'

// The help articles in every bundle language, by article; articles.ts numbers them. Menu names are the
// client's own labels in each language.

export type HelpArticleName = 'deposit' | 'withdraw' | 'fundPassword' | 'identity' | 'copyTrading'

export const HELP_TEXTS: InEveryLanguage<Readonly<Record<HelpArticleName, Text>>> = {
  en: {
    deposit: [
      'How do I deposit?',
      'Open Deposit, choose a coin and chain, and send funds to the address shown.',
    ],
    withdraw: [
      'How do I withdraw?',
      'Set a fund password, save a withdrawal address, and submit during withdrawal hours.',
    ],
    fundPassword: [
      'What is a fund password?',
      'A second password that confirms withdrawals and, where enabled, orders.',
    ],
    identity: ['Why verify my identity?', 'Verification raises your limits and unlocks the welfare rewards.'],
    copyTrading: [
      'How does copy trading work?',
      'Your stake follows a leader; on stop the leader keeps a share of any profit.',
    ],
  },
  zh: {
    deposit: ['如何充值？', '打开“充值”，选择币种和链，然后将资金发送到显示的地址。'],
    withdraw: ['如何提现？', '设置资金密码，保存提现地址，并在提现时间内提交申请。'],
    fundPassword: ['什么是资金密码？', '资金密码是第二个密码，用于确认提现，以及在启用时确认下单。'],
    identity: ['为什么要进行身份认证？', '完成认证可提高您的限额，并解锁福利奖励。'],
    copyTrading: [
      '跟单如何运作？',
      '您的投入金额跟随带单员交易；停止跟单时，带单员会从盈利中抽取一定比例的分成。',
    ],
  },
  ja: {
    deposit: [
      '入金するには？',
      '「入金」を開き、通貨とチェーンを選んで、表示されたアドレスに資金を送金してください。',
    ],
    withdraw: [
      '出金するには？',
      '資金パスワードを設定し、出金アドレスを保存して、出金受付時間内に申請してください。',
    ],
    fundPassword: [
      '資金パスワードとは？',
      '出金と、有効にしている場合は注文を確認するための 2 つ目のパスワードです。',
    ],
    identity: [
      '本人確認が必要な理由は？',
      '本人確認を行うと上限が引き上げられ、特典の報酬を受け取れるようになります。',
    ],
    copyTrading: [
      'コピートレードの仕組みは？',
      '投資額はリーダーの取引に連動します。停止時に利益が出ていれば、その一部をリーダーが受け取ります。',
    ],
  },
  ko: {
    deposit: ['입금은 어떻게 하나요?', '입금을 열고 코인과 체인을 선택한 뒤 표시된 주소로 자금을 보내세요.'],
    withdraw: [
      '출금은 어떻게 하나요?',
      '자금 비밀번호를 설정하고 출금 주소를 저장한 뒤 출금 가능 시간에 신청하세요.',
    ],
    fundPassword: [
      '자금 비밀번호란 무엇인가요?',
      '출금과, 설정한 경우 주문을 확인하는 두 번째 비밀번호입니다.',
    ],
    identity: ['신원 인증은 왜 해야 하나요?', '인증하면 한도가 높아지고 리워드를 받을 수 있습니다.'],
    copyTrading: [
      '카피 트레이딩은 어떻게 작동하나요?',
      '투자 금액이 리더의 거래를 따라갑니다. 중지할 때 수익이 있으면 리더가 그 일부를 가져갑니다.',
    ],
  },
  th: {
    deposit: ['ฝากเงินอย่างไร', 'เปิดเมนูฝากเงิน เลือกเหรียญและเครือข่าย แล้วโอนเงินไปยังที่อยู่ที่แสดง'],
    withdraw: ['ถอนเงินอย่างไร', 'ตั้งรหัสผ่านเงินทุน บันทึกที่อยู่สำหรับถอน แล้วส่งคำขอภายในเวลาถอน'],
    fundPassword: ['รหัสผ่านเงินทุนคืออะไร', 'รหัสผ่านชุดที่สองที่ใช้ยืนยันการถอนเงิน และยืนยันคำสั่งซื้อขายหากเปิดใช้งาน'],
    identity: ['ทำไมต้องยืนยันตัวตน', 'การยืนยันตัวตนช่วยเพิ่มวงเงินของคุณและปลดล็อกรางวัล'],
    copyTrading: ['ก๊อปปี้เทรดทำงานอย่างไร', 'เงินลงทุนของคุณจะเทรดตามผู้นำ เมื่อหยุด ผู้นำจะได้รับส่วนแบ่งจากกำไรที่เกิดขึ้น'],
  },
  vi: {
    deposit: [
      'Làm thế nào để nạp tiền?',
      'Mở mục Nạp tiền, chọn coin và chuỗi, rồi gửi tiền đến địa chỉ được hiển thị.',
    ],
    withdraw: [
      'Làm thế nào để rút tiền?',
      'Đặt mật khẩu quỹ, lưu địa chỉ rút tiền và gửi yêu cầu trong giờ rút tiền.',
    ],
    fundPassword: [
      'Mật khẩu quỹ là gì?',
      'Là mật khẩu thứ hai dùng để xác nhận rút tiền và, nếu được bật, xác nhận lệnh.',
    ],
    identity: [
      'Vì sao cần xác minh danh tính?',
      'Xác minh giúp nâng hạn mức của bạn và mở khóa phần thưởng.',
    ],
    copyTrading: [
      'Giao dịch sao chép hoạt động thế nào?',
      'Số tiền đặt của bạn giao dịch theo người dẫn dắt; khi dừng, người dẫn dắt giữ lại một phần lợi nhuận nếu có.',
    ],
  },
  pt: {
    deposit: [
      'Como faço um depósito?',
      'Abra Depositar, escolha uma moeda e uma rede e envie os fundos para o endereço exibido.',
    ],
    withdraw: [
      'Como faço um saque?',
      'Defina uma senha de fundos, salve um endereço de saque e envie o pedido dentro do horário de saque.',
    ],
    fundPassword: [
      'O que é a senha de fundos?',
      'Uma segunda senha que confirma saques e, quando ativada, ordens.',
    ],
    identity: [
      'Por que verificar minha identidade?',
      'A verificação aumenta seus limites e libera as recompensas.',
    ],
    copyTrading: [
      'Como funciona a cópia de traders?',
      'Seu valor investido segue um líder; ao parar, o líder fica com uma parte do lucro, se houver.',
    ],
  },
  es: {
    deposit: [
      '¿Cómo deposito?',
      'Abre Depositar, elige una moneda y una red, y envía los fondos a la dirección indicada.',
    ],
    withdraw: [
      '¿Cómo retiro?',
      'Establece una contraseña de fondos, guarda una dirección de retiro y envía la solicitud dentro del horario de retiros.',
    ],
    fundPassword: [
      '¿Qué es la contraseña de fondos?',
      'Una segunda contraseña que confirma los retiros y, si está activada, las órdenes.',
    ],
    identity: [
      '¿Por qué verificar mi identidad?',
      'La verificación aumenta tus límites y desbloquea las recompensas.',
    ],
    copyTrading: [
      '¿Cómo funciona la copia de traders?',
      'Tu importe invertido sigue a un líder; al detener la copia, el líder se queda con una parte de las ganancias, si las hay.',
    ],
  },
  fr: {
    deposit: [
      'Comment effectuer un dépôt ?',
      "Ouvrez Dépôt, choisissez une crypto et un réseau, puis envoyez les fonds à l'adresse affichée.",
    ],
    withdraw: [
      'Comment effectuer un retrait ?',
      'Définissez un mot de passe des fonds, enregistrez une adresse de retrait et soumettez votre demande pendant les horaires de retrait.',
    ],
    fundPassword: [
      "Qu'est-ce que le mot de passe des fonds ?",
      "Un second mot de passe qui confirme les retraits et, lorsque c'est activé, les ordres.",
    ],
    identity: [
      'Pourquoi vérifier mon identité ?',
      'La vérification relève vos plafonds et débloque les récompenses.',
    ],
    copyTrading: [
      'Comment fonctionne la copie de trades ?',
      "Votre mise suit un leader ; à l'arrêt, le leader conserve une part des éventuels bénéfices.",
    ],
  },
  ru: {
    deposit: [
      'Как пополнить счёт?',
      'Откройте «Пополнение», выберите монету и сеть и отправьте средства на указанный адрес.',
    ],
    withdraw: [
      'Как вывести средства?',
      'Установите финансовый пароль, сохраните адрес вывода и подайте заявку в часы вывода.',
    ],
    fundPassword: [
      'Что такое финансовый пароль?',
      'Второй пароль, которым подтверждаются выводы средств и, если это включено, ордера.',
    ],
    identity: [
      'Зачем проходить проверку личности?',
      'Проверка повышает ваши лимиты и открывает доступ к наградам.',
    ],
    copyTrading: [
      'Как работает копитрейдинг?',
      'Ваша ставка следует за лидером; при остановке лидер получает долю прибыли, если она есть.',
    ],
  },
  de: {
    deposit: [
      'Wie zahle ich ein?',
      'Öffnen Sie „Einzahlen“, wählen Sie einen Coin und ein Netzwerk und senden Sie das Guthaben an die angezeigte Adresse.',
    ],
    withdraw: [
      'Wie zahle ich aus?',
      'Legen Sie ein Fondspasswort fest, speichern Sie eine Auszahlungsadresse und reichen Sie die Auszahlung innerhalb der Auszahlungszeiten ein.',
    ],
    fundPassword: [
      'Was ist ein Fondspasswort?',
      'Ein zweites Passwort, das Auszahlungen und, sofern aktiviert, Orders bestätigt.',
    ],
    identity: [
      'Warum sollte ich meine Identität bestätigen?',
      'Die Prüfung erhöht Ihre Limits und schaltet die Prämien frei.',
    ],
    copyTrading: [
      'Wie funktioniert das Kopieren von Tradern?',
      'Ihr Einsatz folgt einem Trader; beim Beenden behält der Trader einen Anteil an einem etwaigen Gewinn.',
    ],
  },
  it: {
    deposit: [
      'Come faccio un deposito?',
      "Apri Deposita, scegli una moneta e una rete e invia i fondi all'indirizzo mostrato.",
    ],
    withdraw: [
      'Come faccio un prelievo?',
      "Imposta una password dei fondi, salva un indirizzo di prelievo e invia la richiesta durante l'orario dei prelievi.",
    ],
    fundPassword: [
      "Che cos'è la password dei fondi?",
      'Una seconda password che conferma i prelievi e, se attivata, gli ordini.',
    ],
    identity: ['Perché verificare la mia identità?', 'La verifica aumenta i tuoi limiti e sblocca i premi.'],
    copyTrading: [
      'Come funziona la copia dei trader?',
      "La tua puntata segue un leader; quando la interrompi, il leader trattiene una quota dell'eventuale profitto.",
    ],
  },
  pl: {
    deposit: [
      'Jak wpłacić środki?',
      'Otwórz Wpłata, wybierz monetę i sieć, a następnie wyślij środki na wyświetlony adres.',
    ],
    withdraw: [
      'Jak wypłacić środki?',
      'Ustaw hasło do środków, zapisz adres wypłaty i złóż wniosek w godzinach wypłat.',
    ],
    fundPassword: [
      'Czym jest hasło do środków?',
      'To drugie hasło, które potwierdza wypłaty oraz, jeśli jest włączone, zlecenia.',
    ],
    identity: ['Po co weryfikować tożsamość?', 'Weryfikacja podnosi Twoje limity i odblokowuje nagrody.'],
    copyTrading: [
      'Jak działa kopiowanie transakcji?',
      'Twoja stawka podąża za liderem; po zatrzymaniu lider zachowuje część ewentualnego zysku.',
    ],
  },
  ar: {
    deposit: ['كيف أودع؟', 'افتح «إيداع»، واختر العملة والشبكة، ثم أرسل الأموال إلى العنوان المعروض.'],
    withdraw: ['كيف أسحب؟', 'عيّن كلمة مرور الأموال، واحفظ عنوان سحب، ثم قدّم الطلب خلال ساعات السحب.'],
    fundPassword: [
      'ما هي كلمة مرور الأموال؟',
      'كلمة مرور ثانية تؤكد عمليات السحب، وكذلك الأوامر إذا كان ذلك مفعّلًا.',
    ],
    identity: ['لماذا أتحقق من هويتي؟', 'يرفع التحقق حدودك ويتيح لك الحصول على المكافآت.'],
    copyTrading: [
      'كيف يعمل نسخ التداول؟',
      'يتبع مبلغ صفقتك متداولًا قائدًا؛ وعند الإيقاف يحتفظ القائد بحصة من أي ربح.',
    ],
  },
  da: {
    deposit: [
      'Hvordan indbetaler jeg?',
      'Åbn Indbetal, vælg en mønt og en kæde, og send midlerne til den viste adresse.',
    ],
    withdraw: [
      'Hvordan hæver jeg?',
      'Opret en fondsadgangskode, gem en udbetalingsadresse, og indsend anmodningen inden for udbetalingstiderne.',
    ],
    fundPassword: [
      'Hvad er en fondsadgangskode?',
      'En ekstra adgangskode, der bekræfter udbetalinger og, hvis det er slået til, ordrer.',
    ],
    identity: [
      'Hvorfor bekræfte min identitet?',
      'Bekræftelsen hæver dine grænser og låser op for belønningerne.',
    ],
    copyTrading: [
      'Hvordan fungerer kopihandel?',
      'Din indsats følger en leder; når du stopper, beholder lederen en andel af en eventuel gevinst.',
    ],
  },
  tr: {
    deposit: [
      'Nasıl para yatırırım?',
      'Para yatırma bölümünü açın, bir coin ve ağ seçin, ardından fonları gösterilen adrese gönderin.',
    ],
    withdraw: [
      'Nasıl para çekerim?',
      'Bir fon şifresi belirleyin, bir çekim adresi kaydedin ve talebinizi çekim saatleri içinde gönderin.',
    ],
    fundPassword: [
      'Fon şifresi nedir?',
      'Para çekme işlemlerini ve etkinleştirildiyse emirleri onaylayan ikinci bir şifredir.',
    ],
    identity: [
      'Kimliğimi neden doğrulamalıyım?',
      'Doğrulama limitlerinizi yükseltir ve ödüllerin kilidini açar.',
    ],
    copyTrading: [
      'Kopya işlem nasıl çalışır?',
      'Yatırım tutarınız bir lideri takip eder; durdurduğunuzda lider, varsa kârdan bir pay alır.',
    ],
  },
}
