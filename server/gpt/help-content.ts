/**
 * The product's help pages the assistant answers from, in the three languages the
 * product speaks. Facts come from the specification (§2 screens, §5 rules, §6 roles, §8
 * messages, §9 constants) and from what this build does; prices are filled in from the
 * deployment's configuration when the index is built. The §8 message texts are the ones the
 * screens show (src/api/error-messages.ts and its catalogs).
 */
export type HelpLocale = 'zh' | 'en' | 'ja';
export type HelpArticle = {
  id: string;
  /** The screen the page is about, or null. */
  path: string | null;
  title: Record<HelpLocale, string>;
  body: Record<HelpLocale, string>;
  /** Other words people ask with (indexed, not shown). */
  keywords?: Record<HelpLocale, string>;
};

/** Placeholders replaced from the configuration: {asset_price}, {vault_price}. */
export const HELP_ARTICLES: readonly HelpArticle[] = [
  {
    id: 'assistant',
    path: '/dashboard/gpt/list',
    title: { zh: '智能助手能做什么', en: 'What the chat assistant does', ja: 'チャットアシスタントでできること' },
    body: {
      zh: '智能助手根据本平台的帮助页面和您自己的数据回答问题：查找您的资产和登记记录、按 DNA 查询存证状态、查看积分余额和使用记录、根据您附上的存证文件解释验证失败的原因，以及（管理员、超级管理员和保密员）查看保险箱操作记录。它只能看到您在当前企业中有权看到的数据。默认的内置引擎不连接任何外部服务；部署方可以通过 LLM_BASE_URL、LLM_API_KEY 和 LLM_MODEL 连接任何兼容 OpenAI 的语言模型，此时界面会提示答案来自外部模型，手机号和身份证号在发送前会被遮盖。',
      en: 'The chat assistant answers from this platform’s help pages and your own data: it finds your assets and registrations, looks up a proof’s status by DNA, shows your credit balance and history, explains why a verification failed from a proof file you attach, and (for administrators, super administrators and confidentiality officers) shows vault activity. It only sees what you may see in your current company. The built-in engine uses no outside service; a deployment can connect any OpenAI-compatible language model with LLM_BASE_URL, LLM_API_KEY and LLM_MODEL, and then the screen says an outside model answers, and phone and ID numbers are masked before anything is sent.',
      ja: 'チャットアシスタントは、このプラットフォームのヘルプページとあなた自身のデータから回答します。資産と登録の検索、DNA による証明書の状態確認、クレジット残高と履歴の表示、添付した証明ファイルから検証に失敗した理由の説明、そして（管理者・スーパー管理者・機密管理者のみ）金庫の操作記録の表示ができます。現在の企業であなたが閲覧できるデータだけを参照します。内蔵エンジンは外部サービスを使いません。デプロイ側は LLM_BASE_URL、LLM_API_KEY、LLM_MODEL で OpenAI 互換の言語モデルを接続でき、その場合は画面に外部モデルが回答していると表示され、電話番号と身分証番号は送信前にマスクされます。',
    },
  },
  {
    id: 'home',
    path: '/dashboard/home',
    title: { zh: '首页', en: 'The home screen', ja: 'ホーム画面' },
    body: {
      zh: '首页是默认页面，显示计数器（资产、保险箱文件、积分等）和动态：最近的登记、成员加入和审批、保险箱操作以及文件披露。普通成员只看到自己的动态，管理员和保密员看到整个企业的动态。',
      en: 'Home is the default page. It shows counters (assets, vault files, credits and so on) and an activity feed: recent registrations, members joining and being approved, vault actions and file disclosures. A plain member sees their own activity; administrators and the confidentiality officer see the whole company’s.',
      ja: 'ホームは既定のページで、カウンター（資産、金庫ファイル、クレジットなど）とアクティビティを表示します：最近の登録、メンバーの参加と承認、金庫の操作、ファイルの開示。一般メンバーは自分のアクティビティのみ、管理者と機密管理者は企業全体のアクティビティを見られます。',
    },
  },
  {
    id: 'assets',
    path: '/dashboard/asset',
    title: { zh: '数字资产：登记文件并获得存证证书', en: 'Digital assets: register a file and get a proof certificate', ja: 'デジタル資産：ファイルを登録して証明書を取得する' },
    body: {
      zh: '在“数字资产”中点击登记，选择文件（可以一次选择多个文件或整个文件夹），填写名称和类型（创意作品、创意设计、工业设计、代码、研究、数据、数字签名文件、其他）。文件内容不会上传：浏览器计算文件的 SHA-256 指纹，平台把指纹登记到防篡改账本，得到以 pv 开头的数字资产 DNA。每登记一个资产消耗 {asset_price} 积分。登记后存证状态为“生成中”，证书生成后变为“已生成”，可以在资产详情中下载 PDF 存证证书。同一企业中相同内容的文件只能登记一次（文件已存在）。普通成员只能看到自己登记的资产。',
      en: 'In Digital assets, choose Register, pick a file (several files or a whole folder at once also work) and give it a name and a type (creative work, creative design, industrial design, code, research, data, digitally signed file, other). The file’s content is not uploaded: your browser computes its SHA-256 fingerprint, the platform records it on the tamper-evident ledger and gives the asset a DNA that starts with pv. Each asset registration costs {asset_price} credits. The proof status is "generating" at first and "generated" once the certificate is made; then you can download the PDF proof certificate from the asset’s detail page. The same content can be registered only once per company (the file already exists). A plain member sees only the assets they registered.',
      ja: '「デジタル資産」で登録を選び、ファイル（複数ファイルやフォルダーごとも可）を選んで名前と種類（創作物、創作デザイン、工業デザイン、コード、研究、データ、電子署名ファイル、その他）を入力します。ファイルの中身はアップロードされません。ブラウザーが SHA-256 指紋を計算し、プラットフォームが改ざん検知可能な台帳に記録して、pv で始まるデジタル資産 DNA を付けます。資産の登録には 1 件につき {asset_price} クレジットかかります。証明書の状態は最初「生成中」、証明書ができると「生成済み」になり、資産の詳細画面から PDF の証明書をダウンロードできます。同じ内容のファイルは企業ごとに一度だけ登録できます（ファイルは既に存在します）。一般メンバーは自分が登録した資産だけを見られます。',
    },
  },
  {
    id: 'proof-status',
    path: '/dashboard/asset',
    title: { zh: '存证状态和数字资产 DNA', en: 'Proof status and the asset DNA', ja: '証明書の状態とデジタル資産 DNA' },
    keywords: { zh: '生成中 已生成 状态 最新 存证', en: 'generating generated status latest proof', ja: '生成中 生成済み 状態 最新 証明' },
    body: {
      zh: '每次登记都会得到一个数字资产 DNA（pv 加 20 个字符），它是证书和区块浏览器中的标识。存证状态 1 到 4 显示为“生成中”，5 和 6 显示为“已生成”。证书生成后写明文件指纹、DNA、登记时间、区块地址、企业名称和有效期；证书有效期到期后需要重新生成。您可以在导航栏的搜索框中输入指纹或 DNA 查找资产，也可以问助手“我最新的存证”或“DNA pv… 的状态”。',
      en: 'Every registration gets a digital asset DNA (pv followed by 20 characters); it identifies the proof on the certificate and in the block explorer. Proof status 1 to 4 shows as "generating", 5 and 6 as "generated". A generated certificate states the file fingerprint, the DNA, the registration time, the block address, the company name and the expiry; after it expires the proof must be regenerated. Find an asset by typing its fingerprint or DNA into the search box of the navigation bar, or ask the assistant "my latest proof" or "status of DNA pv…".',
      ja: '登録ごとにデジタル資産 DNA（pv と 20 文字）が付き、証明書とブロックエクスプローラーでの識別子になります。状態 1〜4 は「生成中」、5 と 6 は「生成済み」と表示されます。生成された証明書にはファイルの指紋、DNA、登録日時、ブロックアドレス、企業名、有効期限が記載されます。期限が切れたら証明書を再生成してください。ナビゲーションバーの検索ボックスに指紋または DNA を入力して資産を探すか、アシスタントに「最新の証明書」や「DNA pv… の状態」と尋ねてください。',
    },
  },
  {
    id: 'verification',
    path: '/verify-file',
    title: { zh: '验证中心：验证是如何进行的', en: 'The verification centre: how verification works', ja: '検証センター：検証の仕組み' },
    keywords: { zh: '怎么验证 如何验证 验证步骤 验证原理 验证方法', en: 'verify check steps how verify works', ja: 'どのように検証 検証の方法 検証の手順 行われ 仕組み' },
    body: {
      zh: '在验证中心选择原文件和 PDF 存证文件，然后点击验证；无需登录。浏览器计算原文件的指纹，平台逐项检查：PDF 可读、PDF 内嵌的存证包存在且格式正确、原文件指纹与存证一致、承诺值和数字资产 DNA 正确、记录包含在区块中、区块和声明由平台密钥签名且密钥由平台根证书认证、日志检查点、（如已配置）链上锚定、证书未过期、PDF 页面签名覆盖整个文件，以及该区块确实在本平台账本中。全部通过后显示文件指纹、数字资产 DNA、登记时间、区块地址、企业名称和到期时间。失败时显示“验证失败，此文件未通过验证，可能存在真实性风险”以及第一个失败的检查。也可以离线运行 npx provena verify 原文件 证书.pdf。',
      en: 'In the verification centre choose the original file and the PDF proof, then Verify; no login is needed. Your browser computes the original’s fingerprint and the platform runs every check: the PDF is readable, the proof package embedded in it is present and well-formed, the original’s fingerprint matches the proof, the commitment and the asset DNA are right, the record is included in its block, the block and the statement are signed by a platform key certified by the platform root, the log checkpoint, the chain anchor (when configured), the certificate has not expired, the PDF page signature covers the whole file, and the block really is in this platform’s ledger. When all pass it shows the file hash, the asset DNA, the registration time, the block address, the company name and the expiry. On failure it reads "verification failed, this file did not pass verification and may have an authenticity risk" with the first failed check. Offline: npx provena verify original proof.pdf.',
      ja: '検証センターで元のファイルと PDF の証明ファイルを選び、検証を押します。ログインは不要です。ブラウザーが元ファイルの指紋を計算し、プラットフォームがすべてを確認します：PDF が読めること、埋め込まれた証明パッケージがあり形式が正しいこと、元ファイルの指紋が証明と一致すること、コミットメントと DNA が正しいこと、記録がブロックに含まれること、ブロックと宣言がプラットフォームのルートで認証された鍵で署名されていること、ログのチェックポイント、（設定されていれば）チェーンへのアンカー、証明書の有効期限、PDF ページ署名がファイル全体を覆っていること、そのブロックが本当にこのプラットフォームの台帳にあること。すべて合格するとファイルハッシュ、DNA、登録日時、ブロックアドレス、企業名、有効期限を表示します。失敗すると「検証に失敗しました。このファイルは検証に合格せず、真正性のリスクがあります」と最初に失敗した確認が表示されます。オフラインでは npx provena verify 元ファイル 証明書.pdf。',
    },
  },
  {
    id: 'errors-proof',
    path: '/verify-file',
    title: { zh: '验证失败的提示及处理方法', en: 'Verification failure messages and what to do', ja: '検証失敗のメッセージと対処方法' },
    body: {
      zh: '“原文件与存证文件不匹配”：所选原文件不是登记时的文件（哪怕改动一个字节也不同），请选择登记时的原始文件。“存证文件缺失或无效”：所选 PDF 不含存证包，请使用从资产详情下载的证书，不要使用截图或打印件。“存证文件格式错误”或“证书无法解析”：PDF 已损坏或被转换，请重新下载。“数字资产 ID 不正确”：DNA 不存在或您无权查看。“存证验证失败”：存证包的内容被改动过。“数字资产存证文件已过期，请重新生成”：证书已超过有效期，请在资产详情中重新生成。“证书页面不是平台签名的页面”：PDF 在签名后被编辑过或未签名，请重新下载原证书。“由其他平台签发”：证书完好但签名者不是您信任的平台。“存证不在本平台账本中”：该证书声称的区块不在本平台。',
      en: '"The original file and the proof file do not match": the original you chose is not the registered file (one changed byte makes it different); choose the exact file you registered. "The proof file is missing or invalid": the PDF carries no proof package; use the certificate downloaded from the asset’s page, not a screenshot or a print. "The proof file format is wrong" or "The certificate could not be parsed": the PDF is damaged or was converted; download it again. "The digital asset ID is incorrect": that DNA does not exist or is not yours to see. "Proof verification failed": the proof package was altered. "The digital property proof file has expired, please regenerate it": regenerate the certificate from the asset’s page. "The certificate page is not the one the platform signed": the PDF was edited after signing or is unsigned; download the original again. "Issued by another platform": the proof is intact but its signer is not a platform you trust. "The proof is not in this platform’s ledger": the block it names is not in this platform.',
      ja: '「元のファイルと証明ファイルが一致しません」：選んだ元ファイルが登録したファイルではありません（1 バイトの違いでも別物です）。登録したファイルそのものを選んでください。「証明ファイルがないか、無効です」：PDF に証明パッケージがありません。スクリーンショットや印刷ではなく、資産の詳細画面からダウンロードした証明書を使ってください。「証明ファイルの形式が正しくありません」「証明書を解析できません」：PDF が壊れているか変換されています。もう一度ダウンロードしてください。「デジタル資産 ID が正しくありません」：その DNA は存在しないか、閲覧権限がありません。「証明の検証に失敗しました」：証明パッケージが改ざんされています。「デジタル資産の証明ファイルは有効期限が切れています。再生成してください」：資産の詳細画面で再生成してください。「証明書のページはプラットフォームが署名したものではありません」：署名後に編集されたか署名がありません。元の証明書を再ダウンロードしてください。「他のプラットフォームが発行」：証明は完全ですが署名者が信頼するプラットフォームではありません。「証明がこのプラットフォームの台帳にありません」：指定されたブロックがこのプラットフォームにありません。',
    },
  },
  {
    id: 'credits',
    path: '/dashboard/credit',
    title: { zh: '积分：费用、充值和使用记录', en: 'Credits: what things cost, top-up and history', ja: 'クレジット：料金、チャージ、利用履歴' },
    body: {
      zh: '登记一个数字资产消耗 {asset_price} 积分，登记一个保险箱文件消耗 {vault_price} 积分，由登记的成员支付。积分页面显示可用积分和已消耗积分，以及使用记录（充值、成员充值、收回、资产登记、保险箱文件登记）。管理员提交充值订单，平台运营人员确认后积分进入企业积分池，管理员再通过“成员充值”分配给成员。积分不足时登记会被拒绝，提示“积分不足，请充值”，且不会扣除任何积分；请联系管理员为您充值。与助手对话不消耗积分。',
      en: 'Registering a digital asset costs {asset_price} credits and registering a vault file {vault_price} credits, paid by the member who registers. The Credits screen shows available and consumed credits and the usage history (top-up, member top-up, taken back, asset registration, vault file registration). An administrator places a top-up order; once a platform operator confirms it, the credits go to the company pool, and the administrator gives them to members with Member top-up. With too few credits a registration is refused with "Not enough credits, please top up" and nothing is charged; ask an administrator to top you up. Chatting with the assistant costs no credits.',
      ja: 'デジタル資産の登録は {asset_price} クレジット、金庫ファイルの登録は {vault_price} クレジットで、登録したメンバーが支払います。クレジット画面には利用可能・消費済みのクレジットと利用履歴（チャージ、メンバーへのチャージ、回収、資産登録、金庫ファイル登録）が表示されます。管理者がチャージを注文し、プラットフォーム運営者が確認するとクレジットが企業のプールに入り、管理者が「メンバーへのチャージ」でメンバーに配分します。クレジットが足りないと登録は「クレジットが不足しています。チャージしてください」で拒否され、何も請求されません。管理者にチャージを依頼してください。アシスタントとの会話にクレジットはかかりません。',
    },
  },
  {
    id: 'errors-files',
    path: null,
    title: { zh: '积分、文件和保险箱的提示', en: 'Messages about credits, files and the vault', ja: 'クレジット・ファイル・金庫に関するメッセージ' },
    body: {
      zh: '“积分不足，请充值”：您的可用积分少于登记费用，请联系管理员充值。“文件已存在”：本企业已经登记过内容相同的文件，无需重复登记，可在资产列表中按指纹搜索。“保险箱密钥已过期，请重新解锁”：保险箱解锁会话已过期，请重新用短信验证码解锁。“项目已存在，请重命名”：同名项目已存在。项目名称最多 30 个字符，描述最多 200 个字符。“上传失败”或“文件过大，限制 3M”：图片必须小于 3 MB（jpeg、jpg、png、bmp、gif）。',
      en: '"Not enough credits, please top up": your available credits are below the price; ask an administrator to top you up. "This file already exists": your company already registered a file with the same content; there is no need to register it again, search the asset list by fingerprint. "The vault key has expired, please unlock the vault again": the vault’s unlocked session ended; unlock it again with an SMS code. "A project with this name already exists, please rename it". Project names are at most 30 characters, descriptions at most 200. "Upload failed" or "file too large, limit 3M": images must be under 3 MB (jpeg, jpg, png, bmp, gif).',
      ja: '「クレジットが不足しています。チャージしてください」：利用可能なクレジットが料金より少ないです。管理者にチャージを依頼してください。「このファイルは既に存在します」：同じ内容のファイルが企業で登録済みです。再登録は不要で、資産一覧で指紋を検索できます。「金庫の鍵の有効期限が切れました。もう一度ロックを解除してください」：SMS コードで再度解除してください。「同じ名前のプロジェクトが既に存在します。名前を変更してください」。プロジェクト名は 30 文字まで、説明は 200 文字まで。「アップロードに失敗しました」「ファイルが大きすぎます（上限 3M）」：画像は 3 MB 未満（jpeg、jpg、png、bmp、gif）にしてください。',
    },
  },
  {
    id: 'vault',
    path: '/dashboard/vault',
    title: { zh: '保险箱：商业秘密项目', en: 'The vault: trade-secret projects', ja: '金庫：営業秘密プロジェクト' },
    body: {
      zh: '保险箱存放商业秘密项目。进入前需要用发送到您手机的短信验证码解锁。在项目中登记文件，每个文件消耗 {vault_price} 积分，得到数字资产 DNA 和存证证书。每个项目有操作日志（解锁、创建项目、登记文件、下载证书）。普通成员只能看到自己的项目；管理员、超级管理员和保密员可以看到企业的所有项目和保险箱操作记录。',
      en: 'The vault holds trade-secret projects. You unlock it with an SMS code sent to your phone. Registering a file into a project costs {vault_price} credits and gives a DNA and a proof certificate. Each project has a log (unlocks, projects created, files registered, certificates downloaded). A plain member sees only their own projects; administrators, super administrators and the confidentiality officer see every project and all vault activity of the company.',
      ja: '金庫には営業秘密プロジェクトを保管します。入るには携帯電話に送られる SMS コードでロックを解除します。プロジェクトへのファイル登録は 1 件 {vault_price} クレジットで、DNA と証明書が付きます。各プロジェクトには操作ログ（解除、プロジェクト作成、ファイル登録、証明書ダウンロード）があります。一般メンバーは自分のプロジェクトのみ、管理者・スーパー管理者・機密管理者は企業のすべてのプロジェクトと金庫の操作記録を見られます。',
    },
  },
  {
    id: 'disclosure',
    path: '/dashboard/disclosures',
    title: { zh: '文件披露', en: 'File disclosure', ja: 'ファイルの開示' },
    body: {
      zh: '文件披露把本企业已登记并存储在平台上的文件发送给企业外部的接收人。接收人无需登录：先用发送到登记手机号的验证码证明身份（页面只显示手机号后四位），再同意保密协议，然后下载文件；每一步都会记录。披露状态大于 4 时链接失效，页面提示“链接已过期，请联系对方重新生成”。',
      en: 'File disclosure sends a file your company registered and stored on the platform to a receiver outside the company. The receiver needs no login: they prove their identity with a code sent to the phone on record (only its last 4 digits are shown), accept a confidentiality agreement, then download; each step is recorded. When the disclosure status is above 4 the link has expired and the page says "link expired, please contact the other party to regenerate".',
      ja: 'ファイルの開示は、企業で登録しプラットフォームに保存したファイルを社外の受信者に送ります。受信者はログイン不要で、登録された電話番号に送られるコードで本人確認し（番号は下 4 桁のみ表示）、秘密保持契約に同意してからダウンロードします。各ステップは記録されます。開示の状態が 4 を超えるとリンクは失効し、「リンクの有効期限が切れました。相手に再生成を依頼してください」と表示されます。',
    },
  },
  {
    id: 'company',
    path: '/dashboard/company',
    title: { zh: '我的企业：成员、角色和邀请', en: 'My company: members, roles and invitations', ja: '自分の企業：メンバー、役割、招待' },
    body: {
      zh: '企业中心包括企业信息、数字身份和证书、成员管理、成员申请，以及私钥状态和使用记录。加入企业可以输入企业名称或 8 位邀请码。角色：0 和 4 为企业成员（只能看到自己的数据），1 为超级管理员，2 为管理员，3 为保密员（可以看到企业所有数据，但不能管理成员）。管理员审批或拒绝申请、修改角色、冻结和解冻成员、单个或批量添加成员。被冻结的成员无法登录（“账号已被冻结”）。',
      en: 'The company centre covers company information, the digital identity and certificates, member management, member applications, and the private key’s status and usage history. You join a company by its name or by an 8-character invitation code. Roles: 0 and 4 are members (they see only their own data), 1 super administrator, 2 administrator, 3 confidentiality officer (sees all company data but manages no members). Administrators approve or decline applications, change roles, freeze and unfreeze members and add members one by one or in bulk. A frozen member cannot log in ("your account has been frozen").',
      ja: '企業センターには企業情報、デジタル ID と証明書、メンバー管理、メンバー申請、秘密鍵の状態と利用履歴があります。企業には企業名か 8 文字の招待コードで参加します。役割：0 と 4 はメンバー（自分のデータのみ閲覧）、1 はスーパー管理者、2 は管理者、3 は機密管理者（企業のすべてのデータを閲覧できますがメンバーは管理しません）。管理者は申請の承認・却下、役割の変更、メンバーの凍結・解除、単独または一括のメンバー追加を行います。凍結されたメンバーはログインできません（「アカウントは凍結されています」）。',
    },
  },
  {
    id: 'errors-login',
    path: '/user/login',
    title: { zh: '登录和密码的提示', en: 'Login and password messages', ja: 'ログインとパスワードのメッセージ' },
    body: {
      zh: '“多次密码错误，请十分钟后再试”：连续输错密码后账号被暂时锁定，请等待十分钟或用验证码登录、重置密码。“您的账号已被冻结”：请联系企业管理员解冻。“手机号或密码错误”：请检查后重试。“您的密码强度较弱，请先升级”：点击升级按钮重置密码。“登录已过期，请重新登录”。“操作过于频繁，请稍后再试”。密码需同时包含字母和数字，注册和登录时至少 8 位，修改密码时新密码至少 7 位且不能与旧密码相同。',
      en: '"Multiple wrong passwords, please try again in ten minutes": after repeated wrong passwords the account is locked for a while; wait ten minutes, or log in with an SMS code, or reset the password. "Your account has been frozen": ask your company’s administrator to unfreeze it. "Phone or password wrong": check and try again. "Your password is weak, please upgrade it first": use the upgrade button to reset it. "Your login has expired, please log in again". "Too many attempts, please try again later". Passwords must contain letters and digits, at least 8 characters at sign-up and login; a new password in the change dialog needs at least 7 and must differ from the old one.',
      ja: '「パスワードの誤りが続いたため、10 分後に再度お試しください」：しばらくロックされます。10 分待つか、SMS コードでログインするか、パスワードを再設定してください。「アカウントは凍結されています」：企業の管理者に解除を依頼してください。「電話番号またはパスワードが正しくありません」。「パスワードが弱いです。先に変更してください」：変更ボタンから再設定してください。「ログインの有効期限が切れました。再度ログインしてください」。「操作が多すぎます。しばらくしてから再度お試しください」。パスワードは英字と数字を含み、登録とログインでは 8 文字以上、変更ダイアログの新しいパスワードは 7 文字以上で古いものと異なる必要があります。',
    },
  },
  {
    id: 'errors-codes',
    path: null,
    title: { zh: '短信验证码的提示', en: 'SMS code messages', ja: 'SMS 認証コードのメッセージ' },
    body: {
      zh: '验证码为 6 位数字，有效期 10 分钟，每分钟只能请求一次，重发倒计时 60 秒。“短信验证码错误”：请核对最新收到的验证码。“验证码已过期”：请重新获取。“请求过于频繁，请等待一分钟”：一分钟后再获取。“请先发送验证码”：先点击获取验证码。“企业邀请码错误，请重新输入”：邀请码为 8 位字母和数字。',
      en: 'Codes are 6 digits, valid 10 minutes, one request a minute, with a 60-second resend countdown. "The SMS code is wrong": check the newest code you received. "The code has expired": request a new one. "Requested too often, wait a minute": ask again after a minute. "Send the code first": press send code first. "The enterprise invitation code is wrong, please re-enter": invitation codes are 8 letters and digits.',
      ja: 'コードは 6 桁の数字で 10 分間有効、1 分に 1 回まで、再送のカウントダウンは 60 秒です。「SMS 認証コードが正しくありません」：最新のコードを確認してください。「認証コードの有効期限が切れました」：新しいコードを取得してください。「リクエストが多すぎます。1 分お待ちください」。「先にコードを送信してください」。「企業の招待コードが正しくありません。再入力してください」：招待コードは英数字 8 文字です。',
    },
  },
  {
    id: 'errors-identity',
    path: '/real-auth',
    title: { zh: '实名认证和创建企业', en: 'Real-name authentication and creating a company', ja: '本人確認と企業の作成' },
    body: {
      zh: '实名认证：输入身份证号（18 位或 15 位，可含 X）和姓名，或上传身份证正反面照片（每张小于 3 MB）。“实名认证失败，请核对后重试”：号码和姓名不一致。“身份证无法识别，请重新拍照上传”。“请上传与登录手机号一致的身份证照片”。“实名信息不一致，请核对后重新认证”。“请先完成实名认证”。创建企业：上传营业执照（识别企业名称、遮盖的执照号和法定代表人）；法定代表人可走快速通道（勾选授权协议），其他人下载申请表、签字盖章后上传。“企业已注册”、“企业不存在，可能正在审核”、“您已加入企业”、“法定代表人与营业执照不符”、“营业执照未上传”。',
      en: 'Real-name authentication: type your ID number (18 or 15 digits, X allowed) and name, or upload the front and back photos of your ID card (each under 3 MB). "Real-name authentication failed, please check and try again": number and name do not match. "The ID card could not be recognised, please retake the photo". "Please upload an ID card photo that matches the login phone". "Real-name information inconsistent, check and re-authenticate". "Complete real-name authentication first". Creating a company: upload the business licence (it reads the name, the masked licence number and the legal representative); the legal person may use the fast channel (tick the authorisation agreement), anyone else downloads the application form, signs and stamps it and uploads it. "Already registered", "The enterprise does not exist or may still be under review", "You already joined an enterprise", "The legal person does not match the business licence", "The business licence has not been uploaded".',
      ja: '本人確認：身分証番号（18 桁または 15 桁、X 可）と氏名を入力するか、身分証の表裏の写真（各 3 MB 未満）をアップロードします。「本人確認に失敗しました。確認して再度お試しください」：番号と氏名が一致しません。「身分証を認識できません。撮り直してアップロードしてください」。「ログイン電話番号と一致する身分証の写真をアップロードしてください」。「実名情報が一致しません」。「先に本人確認を完了してください」。企業の作成：営業許可証をアップロードします（企業名、マスクされた許可番号、法定代表者を読み取ります）。法定代表者は高速チャネル（授権契約に同意）、それ以外は申請書をダウンロードし署名・押印してアップロードします。「既に登録されています」「企業が存在しないか審査中です」「既に企業に参加しています」「法定代表者が営業許可証と一致しません」「営業許可証がアップロードされていません」。',
    },
  },
  {
    id: 'errors-network',
    path: null,
    title: { zh: '网络和服务器错误', en: 'Network and server errors', ja: 'ネットワークとサーバーのエラー' },
    body: {
      zh: '“服务器错误，请稍后再试”（500）：服务器处理请求时出错，请稍后重试。“网络请求超时”（504）：网络较慢或服务器繁忙，请检查网络后重试。“网络异常，请稍后再试”并附带状态码：其他网络问题。如果问题持续，请联系平台并提供出错的时间和操作。',
      en: '"Server error, please retry later" (500): the server failed on the request; try again later. "Network request timed out" (504): the network is slow or the server is busy; check your connection and try again. "Network abnormal, please retry later" with a status: another network problem. If it keeps happening, contact the platform with the time and what you were doing.',
      ja: '「サーバーエラーです。しばらくしてから再度お試しください」（500）。「ネットワーク要求がタイムアウトしました」（504）：回線が遅いかサーバーが混雑しています。接続を確認して再試行してください。「ネットワークに異常があります。しばらくしてから再度お試しください」（ステータス付き）：その他のネットワークの問題。続く場合は時刻と操作内容を添えてプラットフォームに連絡してください。',
    },
  },
  {
    id: 'setting',
    path: '/dashboard/setting',
    title: { zh: '个人中心', en: 'The personal centre', ja: '個人センター' },
    body: {
      zh: '个人中心可以查看基本资料，修改手机号（需要旧手机和新手机的验证码，新手机号不能与当前相同）、修改姓名和修改密码。手机号显示为前 3 位和后 4 位。由目录服务管理的账号部分资料不可修改。',
      en: 'The personal centre shows your basic profile and lets you change your phone (codes to the old and the new phone; the new number must differ from the current one), your name and your password. Phones show their first 3 and last 4 digits. Accounts managed by a directory service cannot edit some profile fields.',
      ja: '個人センターでは基本情報の確認、電話番号の変更（旧番号と新番号へのコードが必要で、新番号は現在と異なる必要があります）、氏名とパスワードの変更ができます。電話番号は先頭 3 桁と末尾 4 桁で表示されます。ディレクトリサービスで管理されるアカウントは一部の項目を編集できません。',
    },
  },
  {
    id: 'explorer',
    path: '/explorer',
    title: { zh: '区块浏览器和搜索', en: 'The block explorer and search', ja: 'ブロックエクスプローラーと検索' },
    body: {
      zh: '区块浏览器公开显示账本的区块和记录（只显示 DNA 和承诺值，不显示文件内容或名称）。导航栏的搜索框可以输入文件指纹或 DNA，也可以点击上传图标在浏览器中计算文件指纹后搜索；找不到时显示“未找到搜索结果！”。',
      en: 'The block explorer shows the ledger’s blocks and entries publicly (only DNAs and commitments, never file contents or names). The navigation bar’s search box takes a file fingerprint or a DNA, or use the upload icon to fingerprint a file in your browser and search; when nothing matches it reads "no search results found!".',
      ja: 'ブロックエクスプローラーは台帳のブロックと記録を公開表示します（DNA とコミットメントのみで、ファイルの内容や名前は表示しません）。ナビゲーションバーの検索ボックスにはファイルの指紋か DNA を入力するか、アップロードアイコンでブラウザー内で指紋を計算して検索します。見つからないと「検索結果が見つかりません！」と表示されます。',
    },
  },
];
