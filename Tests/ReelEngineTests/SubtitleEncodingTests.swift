import Foundation
@testable import ReelEngine
import ReelTestSupport
import Testing

/// Subtitle files in the encodings people's files come in, each a few cues of natural text
/// written here in UTF-8 and converted by iconv(1), read the way the player reads an added
/// file: the cues must come back exactly as written.
/// Threading: each test on its own task, with files of its own.
@Suite("Subtitle encodings")
struct SubtitleEncodingTests {
    /// Threading: an immutable value.
    struct Case: Sendable, CustomTestStringConvertible {
        /// The iconv name the file is written in.
        let charset: String
        /// The name Reel reports for it.
        let detected: String
        let bom: [UInt8]
        let cues: [String]
        var testDescription: String { charset + (bom.isEmpty ? "" : " with BOM") }

        init(_ charset: String, detected: String? = nil, bom: [UInt8] = [], _ cues: [String]) {
            self.charset = charset
            self.detected = detected ?? charset
            self.bom = bom
            self.cues = cues
        }
    }

    static let japanese = [
        "おはようございます。今日はとてもいい天気ですね。",
        "ええ、本当に。午後から公園を散歩しませんか？",
        "いいですね。でも、その前に駅で友達を迎えに行かなければなりません。",
        "何時に着く予定ですか？",
        "電車は十時半に到着するはずです。一緒に来ますか？",
        "もちろん。帰りに喫茶店でコーヒーを飲みましょう。",
    ]
    static let russian = [
        "Привет! Ты уже слышал новости?",
        "Нет, а что случилось?",
        "Наш старый друг Михаил вернулся из Москвы и хочет нас увидеть.",
        "Вот это сюрприз! Когда мы с ним встретимся?",
        "Он приглашает нас на ужин в субботу вечером.",
        "Отлично, я обязательно приду. Что мне принести?",
    ]

    static let cases: [Case] = [
        Case("SHIFT_JIS", japanese),
        Case("BIG5", [
            "你今天晚上有空嗎？我們一起去吃飯吧。",
            "好啊，可是我要先回家換衣服。",
            "沒問題，我七點在車站門口等你。",
            "那家餐廳的菜很好吃，價格也不貴。",
            "聽說他們的牛肉麵是全台北最有名的。",
            "太好了，我已經開始覺得餓了。",
        ]),
        Case("EUC-KR", [
            "안녕하세요. 오랜만이에요.",
            "네, 정말 오랜만이네요. 그동안 어떻게 지내셨어요?",
            "회사 일 때문에 너무 바빴어요. 주말에도 일을 했거든요.",
            "힘들었겠네요. 이번 주말에는 좀 쉬세요.",
            "고마워요. 우리 같이 영화 보러 갈래요?",
            "좋아요. 토요일 오후에 극장 앞에서 만나요.",
        ]),
        Case("GB18030", [
            "你好，请问火车站怎么走？",
            "一直往前走，到第二个路口向左转就到了。",
            "谢谢你。从这里走过去要多长时间？",
            "大概十分钟吧。如果你赶时间，可以坐出租车。",
            "不用了，我想顺便看看这个城市。",
            "那祝你旅途愉快！",
        ]),
        Case("WINDOWS-1250", [
            "Dzień dobry, czy mogę w czymś pomóc?",
            "Tak, szukam książki o historii Polski dla mojego syna.",
            "Mamy kilka świetnych pozycji na tej półce po lewej stronie.",
            "Ta wygląda bardzo ciekawie. Ile kosztuje?",
            "Czterdzieści pięć złotych. Płaci pani kartą czy gotówką?",
            "Kartą, proszę. Dziękuję bardzo za pomoc.",
        ]),
        Case("WINDOWS-1251", russian),
        Case("WINDOWS-1253", [
            "Καλημέρα! Τι κάνεις σήμερα;",
            "Πολύ καλά, ευχαριστώ. Πάμε για καφέ στην πλατεία;",
            "Ναι, αλλά πρώτα πρέπει να περάσω από το φαρμακείο.",
            "Εντάξει, θα σε περιμένω στο καφενείο δίπλα στην εκκλησία.",
            "Τέλεια. Θα είμαι εκεί σε δέκα λεπτά.",
            "Άργησες πάλι, Άννα… Έλα γρήγορα, γιατί έρχεται και η Μαρία.",
        ]),
        Case("WINDOWS-1255", [
            "שלום, מה שלומך היום?",
            "אני בסדר גמור, תודה. ומה איתך?",
            "גם אני בסדר. אתה רוצה לבוא איתי לשוק אחר הצהריים?",
            "בשמחה. אני צריך לקנות פירות וירקות לארוחת הערב.",
            "מצוין, ניפגש ליד תחנת האוטובוס בשעה ארבע.",
            "נתראה שם. אל תשכח להביא תיק גדול.",
        ]),
        Case("WINDOWS-1256", [
            "مرحبا، كيف حالك اليوم؟",
            "أنا بخير، شكرا لك. وأنت؟",
            "الحمد لله. هل تريد أن نذهب إلى السوق معا؟",
            "نعم، أحتاج إلى شراء بعض الخبز والفواكه.",
            "حسنا، سأنتظرك أمام المسجد بعد صلاة العصر.",
            "اتفقنا. إلى اللقاء.",
        ]),
        Case("KOI8-R", [
            "Доброе утро, товарищ капитан. Корабль готов к отплытию.",
            "Хорошо. Проверьте ещё раз все двигатели и доложите мне.",
            "Есть! Погода сегодня обещает быть спокойной.",
            "Надеюсь, что синоптики не ошибаются. Путь у нас долгий.",
            "Сколько дней займёт переход до Владивостока?",
            "Около двух недель, если ветер будет попутным.",
        ]),
        Case("ISO-8859-2", [
            "Dobrý den, jak se máte?",
            "Děkuji, dobře. Právě jsem se vrátil z dovolené na horách.",
            "To zní skvěle! Jaké bylo počasí?",
            "Celý týden svítilo slunce a večer jsme chodili na procházky.",
            "Příští rok bych tam chtěl jet znovu s celou rodinou.",
            "Určitě mi pošli nějaké fotografie.",
        ]),
        Case("ISO-8859-7", [
            "Άννα, πού είναι τα κλειδιά του αυτοκινήτου;",
            "Τα άφησα πάνω στο τραπέζι της κουζίνας, δίπλα στο ψωμί.",
            "Δεν τα βλέπω πουθενά. Μήπως τα πήρε ο Γιώργος;",
            "Όχι, αυτός έφυγε νωρίς το πρωί με το ποδήλατο.",
            "Τότε θα ψάξω ξανά στο σαλόνι.",
            "Βιάσου, αλλιώς θα χάσουμε το πλοίο για την Αθήνα.",
        ]),
        Case("ISO-8859-15", [
            "Bonjour, je voudrais un café et deux croissants, s'il vous plaît.",
            "Ça fait quatre euros cinquante. Vous payez par carte ?",
            "Non, en espèces. Voilà un billet de dix €.",
            "Merci beaucoup. Voici votre monnaie et votre reçu.",
            "Vous avez aussi des œufs frais pour demain matin ?",
            "Bien sûr, ma sœur les apporte de la ferme chaque jour.",
        ]),
        // uchardet names Western text ISO-8859-1 and Turkish text ISO-8859-9 even where the
        // bytes 0x80–0x9F hold Windows quotes: they must come back as quotes.
        Case("WINDOWS-1252", [
            "Tu as vu le film hier soir ?",
            "Oui, c’est « Le Grand Bleu » – je l’adore.",
            "Moi aussi… La musique est très belle.",
            "On pourrait le revoir ensemble à Noël.",
            "Bonne idée ! J’apporterai du chocolat chaud.",
        ]),
        Case("WINDOWS-1254", [
            "Günaydın! Bugün hava çok güzel, değil mi?",
            "Evet, öğleden sonra sahilde yürüyüş yapalım mı?",
            "Önce işlerimi bitirmem gerekiyor. Şirkette çok yoğun bir hafta geçirdim.",
            "Anlıyorum. Akşam yemeğinde buluşuruz o zaman.",
            "Harika, “Deniz Kızı” lokantasında saat yedide görüşürüz…",
        ]),
        Case("UTF-16LE", russian),
        Case("UTF-16BE", japanese),
        Case("UTF-8", [
            "Grüße aus Köln! Wie geht’s dir?",
            "Très bien, merci. Ça va très bien.",
            "今日はとてもいい天気ですね。",
        ]),
        Case("UTF-8", bom: [0xEF, 0xBB, 0xBF], [
            "Привет из Москвы!",
            "Ελληνικά και English σε ένα αρχείο.",
            "你好，世界。",
        ]),
    ]

    /// SubRip of `cues`, three seconds apart.
    static func srt(_ cues: [String]) -> String {
        cues.enumerated().map { n, text in
            let start = 1 + 3 * n
            return "\(n + 1)\n00:00:\(String(format: "%02d", start)),000 --> 00:00:\(String(format: "%02d", start + 2)),500\n\(text)\n"
        }.joined(separator: "\n")
    }

    @Test("A file in each encoding is found and read back exactly", arguments: cases)
    func encoding(_ c: Case) throws {
        let path = try SubtitleOracle.folder() + "/film.srt"
        try SubtitleOracle.write(Self.srt(c.cues), to: path, charset: c.charset, bom: c.bom)
        let decoded = try SubtitleLoader.loadFile(path, id: 1)
        #expect(decoded.track.charset == c.detected)
        #expect(SubtitleTests.cueTexts(decoded) == c.cues)
    }

    @Test("A person's encoding wins over detection: the file reads as iconv reads it in that encoding")
    func chosenEncodingWins() throws {
        let folder = try SubtitleOracle.folder()
        let path = folder + "/film.srt"
        try SubtitleOracle.write(Self.srt(Self.russian), to: path, charset: "WINDOWS-1251")
        #expect(try SubtitleLoader.loadFile(path, id: 1).track.charset == "WINDOWS-1251")

        let asKOI8 = try Command.run(["iconv", "-f", "KOI8-R", "-t", "UTF-8", path]).output
        let expected = asKOI8.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 4 == 2 }.map { String($0.element) }
        let chosen = try SubtitleLoader.loadFile(path, id: 1, charset: "KOI8-R")
        #expect(chosen.track.charset == "KOI8-R")
        #expect(SubtitleTests.cueTexts(chosen) == expected)
        #expect(expected.count == Self.russian.count && expected != Self.russian)
    }

    @Test("UTF-16 chosen for a file without a mark reads it in its own byte order")
    func chosenUTF16WithoutMark() throws {
        for (order, cues) in [("UTF-16LE", Self.russian), ("UTF-16BE", Self.japanese)] {
            let path = try SubtitleOracle.folder() + "/film.srt"
            try SubtitleOracle.write(Self.srt(cues), to: path, charset: order)
            let decoded = try SubtitleLoader.loadFile(path, id: 1, charset: "UTF-16")
            #expect(decoded.track.charset == "UTF-16", "\(order)")
            #expect(SubtitleTests.cueTexts(decoded) == cues, "\(order)")
        }
    }

    @Test("Japanese from Windows keeps its ASS tags: a backslash is a backslash, not a yen sign")
    func shiftJISKeepsBackslashes() throws {
        let cues = ["{\\an8}駅の前で待っています。", "すぐに行きます！", "ちょっと待って、財布を忘れました。",
                    "大丈夫、私が払いますよ。", "ありがとう。今度は私がおごります。"]
        let path = try SubtitleOracle.folder() + "/film.srt"
        // What Japanese Windows writes as Shift-JIS.
        try SubtitleOracle.write(Self.srt(cues), to: path, charset: "CP932")
        let decoded = try SubtitleLoader.loadFile(path, id: 1)
        #expect(decoded.track.charset == "SHIFT_JIS")
        #expect(SubtitleTests.cueTexts(decoded) == cues)
    }

    @Test("Korean from Windows (CP949) read as EUC-KR keeps the syllables EUC-KR lacks")
    func eucKRReadsCP949() throws {
        // 똠 is one of the syllables only CP949 has (uchardet 0.0.7 does not place such files:
        // a person chooses EUC-KR).
        let cues = ["어제 '똠방각하'라는 드라마를 다시 봤어요.", "정말요? 그거 아주 오래된 드라마잖아요.",
                    "네, 그래도 여전히 재미있더라고요.", "주인공 이름이 뭐였죠?", "기억이 잘 안 나요. 같이 찾아볼까요?"]
        let path = try SubtitleOracle.folder() + "/film.srt"
        try SubtitleOracle.write(Self.srt(cues), to: path, charset: "CP949")
        let decoded = try SubtitleLoader.loadFile(path, id: 1, charset: "EUC-KR")
        #expect(decoded.track.charset == "EUC-KR")
        #expect(SubtitleTests.cueTexts(decoded) == cues)
    }

    @Test("Bitmap subtitles are not taken for text, not even for UTF-16 without a mark")
    func bitmapIsNotText() throws {
        for path in [try Fixtures.dvdSubtitles(), try Fixtures.dvbSubtitles()] {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(!SubtitleCharset.looksLikeText(data), "\(path)")
            #expect(SubtitleCharset.utf16WithoutMark(data) == nil, "\(path)")
            let decoded = try SubtitleLoader.loadFile(path, id: 1)
            #expect(decoded.track.isBitmap && decoded.track.charset == nil, "\(path)")
        }
    }
}
