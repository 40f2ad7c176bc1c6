// Written by scripts/prompt-examples.py --write; do not edit by hand (run the script again).
extension JudgeExamples {
    /// Per language: the tuning half's first good and generic lines of eval/lines.
    static let byLanguage: [String: JudgeExamples] = [
        "en": JudgeExamples(
            good: [
                "Leave a thermos of hot cocoa on the step for the mail carrier tomorrow morning.",
                "Sharpen the kitchen knives on Sunday, then slice tomatoes thin enough to read through.",
                "Call your grandmother before dinner and ask her how she learned to make dumplings.",
                "Walk the long way home past the bakery and buy a loaf for the widower upstairs.",
                "Carry an extra umbrella on rainy Tuesdays and hand it to whoever is waiting at the bus stop.",
                "Teach your nephew to skip stones at the lake until one bounces five times.",
            ],
            generic: [
                "Believe in yourself and never give up on your dreams.",
                "Every day is a new opportunity to shine.",
                "Success is not final, and failure is never the end of your journey.",
                "Your potential is limitless when you believe in the power of your dreams.",
                "Happiness is a choice you make every single day of your life.",
                "Embrace the journey and trust that everything will fall into place.",
            ]),
        "de": JudgeExamples(
            good: [
                "Streich den rostigen Briefkasten rot an und winke jedem Nachbarn, der vorbeigeht.",
                "Stell der Briefträgerin morgen früh eine Thermoskanne heißen Tee auf die Treppe.",
                "Bring der alten Frau im dritten Stock frische Brötchen mit, wenn du ohnehin zum Bäcker gehst.",
                "Kleb einen Papierstern ans Fenster für das Kind gegenüber, das dir immer zuwinkt.",
                "Pflanz drei Tulpenzwiebeln neben die Haustür, damit der April dich überraschen kann.",
                "Gib den geliehenen Bohrer heute zurück und leg ein Glas Pflaumenmus dazu.",
            ],
            generic: [
                "Erfolg beginnt in deinem Kopf, also denke jeden Tag positiv.",
                "Folge deinem Herzen, denn es kennt den Weg zu deinem Glück.",
                "Glück ist eine Entscheidung, die du jeden Morgen aufs Neue triffst.",
                "Lebe jeden Tag so, als wäre es dein letzter auf dieser Welt.",
                "Wer nicht kämpft, hat schon verloren, also kämpfe für deine Träume.",
                "Positive Gedanken führen zu einem positiven Leben voller Freude und Liebe.",
            ]),
        "es": JudgeExamples(
            good: [
                "Deja un termo de chocolate caliente en el escalón para la cartera mañana temprano.",
                "Llama a tu abuela antes de cenar y pregúntale cómo aprendió a hacer croquetas.",
                "Engrasa la bisagra de la puerta del patio para que la casa duerma en silencio.",
                "Vuelve a casa por la calle de la panadería y compra una barra para el viudo del tercero.",
                "Arregla la pata coja de la silla con un cartón doblado e invita a alguien a sentarse.",
                "Escribe a tu primera maestra una postal y dale las gracias por su paciencia con las tablas.",
            ],
            generic: [
                "La vida es demasiado corta para esperar el momento perfecto.",
                "Sigue a tu corazón, porque él conoce el camino hacia tu felicidad.",
                "Cada caída es solo un paso más en el camino hacia el éxito.",
                "Quien no lucha ya ha perdido, así que lucha siempre por tus sueños.",
                "Tu futuro está en tus manos, así que haz lo mejor con él.",
                "Da lo mejor de ti cada día y el éxito llegará solo.",
            ]),
        "fr": JudgeExamples(
            good: [
                "Repeins en rouge la boîte aux lettres rouillée et salue chaque voisin qui passe devant.",
                "Laisse un thermos de chocolat chaud sur la marche pour la factrice demain matin.",
                "Appelle ta grand-mère avant le dîner et demande-lui comment elle réussit sa pâte à crêpes.",
                "Colle une étoile en papier à la fenêtre pour l'enfant d'en face qui te fait signe.",
                "Aiguise les couteaux de cuisine le dimanche et coupe les tomates aussi fines qu'une feuille.",
                "Cale le pied bancal de la chaise avec un carton plié et invite quelqu'un à s'y asseoir.",
            ],
            generic: [
                "Chaque jour est une nouvelle occasion de briller de mille feux.",
                "La vie est trop courte pour attendre le moment parfait.",
                "Écoute ton cœur, car il connaît le chemin vers ton bonheur.",
                "Chaque échec n'est qu'une étape de plus sur le chemin de la réussite.",
                "Le bonheur est un choix que tu fais chaque matin en te levant.",
                "Ton avenir est entre tes mains, alors fais-en quelque chose de grand.",
            ]),
        "it": JudgeExamples(
            good: [
                "Ridipingi di rosso la cassetta della posta arrugginita e saluta ogni vicino che passa.",
                "Lascia sul gradino un thermos di cioccolata calda per la postina domattina.",
                "Ungi il cardine che cigola sul cancello, così il gatto di notte non si spaventa più.",
                "Torna a casa passando dal fornaio e compra una pagnotta per il vedovo del terzo piano.",
                "Sistema la gamba zoppa della sedia con un cartoncino piegato e invita qualcuno a sedersi.",
                "Insegna a tuo nipote a far rimbalzare i sassi sul lago finché uno salta cinque volte.",
            ],
            generic: [
                "Ogni giorno è una nuova opportunità per brillare di luce propria.",
                "La vita è troppo breve per aspettare il momento perfetto.",
                "Il successo inizia nella tua mente, quindi pensa positivo ogni giorno.",
                "Sei più forte di quanto pensi e più coraggioso di quanto credi.",
                "Segui il tuo cuore, perché conosce la strada verso la tua felicità.",
                "Ogni caduta è solo un passo in più sulla strada del successo.",
            ]),
        "pt": JudgeExamples(
            good: [
                "Pinte de vermelho a caixa de correio enferrujada e acene para cada vizinho que passar.",
                "Ligue para a sua avó antes do jantar e pergunte como ela aprendeu a fazer pastéis.",
                "Lubrifique a dobradiça que range no portão para o gato não se assustar de noite.",
                "Volte para casa pela rua da padaria e compre um pão para o viúvo do terceiro andar.",
                "Calce a perna bamba da cadeira com um papelão dobrado e convide alguém para sentar.",
                "Mande um postal para a sua primeira professora e agradeça a paciência com a tabuada.",
            ],
            generic: [
                "A vida é curta demais para esperar o momento perfeito.",
                "Você é mais forte do que imagina e mais corajoso do que acredita.",
                "Siga o seu coração, porque ele conhece o caminho para a sua felicidade.",
                "Cada queda é apenas mais um passo no caminho para o sucesso.",
                "Quem não luta já perdeu, então lute sempre pelos seus sonhos.",
                "O seu futuro está nas suas mãos, então faça dele algo grandioso.",
            ]),
    ]
}
