/// Word lists behind the distinctiveness score, per language. Entries are folded (no accents,
/// lower case) word stems: a token matches when it starts with the stem, so "carried" matches
/// "carr" and "Fenster" matches "fenster". Short stems (≤ 3 letters) must match exactly.
enum DistinctivenessLexicon {
    /// Things one can see, touch or hear.
    static let concrete: [String: [String]] = [
        "en": ["kettle", "bread", "window", "river", "stone", "hand", "door", "lamp", "rain", "coat", "boot", "table",
               "cup", "key", "road", "bridge", "garden", "seed", "salt", "thread", "needle", "candle", "letter",
               "ladder", "roof", "boat", "shore", "snow", "bus", "train", "apple", "bell", "chair", "kitchen",
               "stair", "porch", "pocket", "shoe", "soup", "pencil", "map", "lantern", "harbo", "field", "tree",
               "bicycle", "tea", "coffee", "sock", "button", "basket", "blanket", "onion", "plate", "spoon", "fence"],
        "de": ["wasserkoch", "brot", "fenster", "fluss", "stein", "hand", "hande", "tur", "lampe", "regen", "mantel",
               "stiefel", "tisch", "tasse", "schluss", "strasse", "brucke", "garten", "samen", "salz", "faden", "nadel",
               "kerze", "brief", "leiter", "dach", "boot", "ufer", "schnee", "zug", "apfel", "glocke", "stuhl", "kuche",
               "treppe", "tasche", "schuh", "suppe", "bleistift", "karte", "laterne", "hafen", "feld", "baum", "fahrrad",
               "tee", "kaffee", "knopf", "korb", "decke", "teller", "loffel", "zaun"],
        "es": ["tetera", "pan", "ventana", "rio", "piedra", "mano", "puerta", "lampara", "lluvia", "abrigo", "bota",
               "mesa", "taza", "llave", "camino", "puente", "jardin", "semilla", "sal", "hilo", "aguja", "vela", "carta",
               "escalera", "tejado", "barca", "orilla", "nieve", "tren", "manzana", "campana", "silla", "cocina",
               "bolsillo", "zapato", "sopa", "lapiz", "mapa", "farol", "puerto", "campo", "arbol", "bicicleta", "cafe",
               "boton", "cesta", "manta", "cebolla", "plato", "cuchara", "valla"],
        "fr": ["bouilloire", "pain", "fenetre", "riviere", "pierre", "main", "porte", "lampe", "pluie", "manteau",
               "botte", "table", "tasse", "cle", "route", "pont", "jardin", "graine", "sel", "fil", "aiguille", "bougie",
               "lettre", "echelle", "toit", "bateau", "rivage", "neige", "train", "pomme", "cloche", "chaise", "cuisine",
               "escalier", "poche", "chaussure", "soupe", "crayon", "carte", "lanterne", "port", "champ", "arbre",
               "velo", "the", "cafe", "bouton", "panier", "couverture", "oignon", "assiette", "cuillere", "cloture"],
        "it": ["bollitore", "pane", "finestra", "fiume", "pietra", "mano", "mani", "porta", "lampada", "pioggia",
               "cappotto", "stivale", "tavol", "tazza", "chiave", "strada", "ponte", "giardino", "seme", "sale", "filo",
               "ago", "candela", "lettera", "scala", "tetto", "barca", "riva", "neve", "treno", "mela", "campana",
               "sedia", "cucina", "tasca", "scarpa", "minestra", "matita", "mappa", "lanterna", "porto", "campo",
               "albero", "bicicletta", "caffe", "bottone", "cesto", "coperta", "cipolla", "piatto", "cucchiaio"],
        "pt": ["chaleira", "pao", "janela", "rio", "pedra", "mao", "maos", "porta", "lampada", "chuva", "casaco",
               "bota", "mesa", "xicara", "chave", "estrada", "ponte", "jardim", "semente", "sal", "linha", "agulha",
               "vela", "carta", "escada", "telhado", "barco", "margem", "neve", "trem", "comboio", "maca", "sino",
               "cadeira", "cozinha", "bolso", "sapato", "sopa", "lapis", "mapa", "lanterna", "porto", "campo", "arvore",
               "bicicleta", "cafe", "botao", "cesto", "cobertor", "cebola", "prato", "colher", "cerca"],
    ]

    /// Physical, doable actions.
    static let actions: [String: [String]] = [
        "en": ["carr", "fold", "plant", "mend", "build", "climb", "sweep", "knock", "open", "lift", "pour", "stitch",
               "walk", "write", "call", "hold", "light", "bake", "wash", "repair", "steer", "dig", "sow", "bring",
               "hand", "share", "cook", "paint", "fix", "knit", "row", "push", "pull", "water", "patch", "sing", "run"],
        "de": ["trag", "falt", "pflanz", "flick", "bau", "kletter", "kehr", "klopf", "offne", "heb", "giess", "nah",
               "geh", "schreib", "ruf", "halt", "zund", "back", "wasch", "reparier", "steuer", "grab", "sa", "bring",
               "teil", "koch", "mal", "stopf", "ruder", "schieb", "zieh", "sing", "lauf"],
        "es": ["llev", "dobl", "plant", "remend", "constru", "subi", "barr", "llam", "abr", "levant", "vierte",
               "cose", "cami", "escrib", "sosten", "enciend", "horne", "lav", "repar", "cav", "siembr", "trae",
               "compart", "cocin", "pint", "arregl", "rem", "empuj", "tir", "rieg", "cant", "corr"],
        "fr": ["port", "pli", "plant", "raccommod", "constru", "grimp", "balai", "frapp", "ouvr", "soulev", "vers",
               "cou", "march", "ecri", "appel", "tien", "allum", "cuis", "lav", "repar", "creus", "sem", "apport",
               "partag", "pein", "rame", "pouss", "tir", "arros", "chant", "cour"],
        "it": ["port", "pieg", "piant", "rammend", "costru", "sal", "spazz", "buss", "apr", "solleva", "vers", "cuc",
               "cammin", "scriv", "chiam", "tien", "accend", "inforn", "lav", "ripar", "scav", "semin", "condivid",
               "diping", "aggiust", "rem", "sping", "tir", "annaff", "cant", "corr"],
        "pt": ["lev", "dobr", "plant", "remend", "constr", "sob", "varr", "bat", "abr", "ergu", "despej", "costur",
               "camin", "escrev", "cham", "segur", "acend", "ass", "lav", "consert", "cav", "semei", "traz", "partilh",
               "compart", "cozinh", "pint", "rem", "empurr", "pux", "reg", "cant", "corr"],
    ]

    /// Named, specific feelings (rewarded) and vague evaluations (penalised).
    static let specificEmotions: [String: [String]] = [
        "en": ["relie", "homesick", "nervous", "grief", "griev", "shy", "stubborn", "grateful", "gratitude", "ache",
               "jitter", "awkward", "proud", "ashamed", "longing", "restless", "tender", "lonel", "embarrass", "dread",
               "giddy", "sheepish", "patien"],
        "de": ["erleichter", "heimweh", "nervos", "trauer", "schuchtern", "stur", "dankbar", "sehnsucht", "stolz",
               "scham", "unruh", "einsam", "verleg", "zartlich", "geduld", "bang"],
        "es": ["alivio", "nostalgi", "nervios", "duelo", "timid", "terco", "agradecid", "gratitud", "anhelo",
               "orgullo", "verguenza", "inquiet", "soledad", "ternura", "pacien", "morrina", "anoranza"],
        "fr": ["soulag", "mal du pays", "nerveu", "chagrin", "deuil", "timide", "tetu", "reconnaiss", "nostalgi",
               "fier", "honte", "inquiet", "solitude", "tendresse", "patien", "trac"],
        "it": ["sollievo", "nostalgi", "nervos", "lutto", "timid", "testard", "grat", "struggiment", "orgoglio",
               "vergogna", "inquiet", "solitudine", "tenerezza", "pazien", "imbarazz"],
        "pt": ["alivio", "saudade", "nervos", "luto", "timid", "teimos", "grat", "anseio", "orgulho", "vergonha",
               "inquiet", "solidao", "ternura", "pacien", "embaraco"],
    ]

    static let vagueEvaluations: [String: [String]] = [
        "en": ["happy", "sad", "good", "great", "amazing", "wonderful", "beautiful", "awesome", "perfect", "best"],
        "de": ["glucklich", "traurig", "gut", "toll", "wunderbar", "schon", "perfekt", "beste"],
        "es": ["feliz", "triste", "bueno", "buena", "genial", "maravillos", "hermos", "perfect", "mejor"],
        "fr": ["heureu", "triste", "bon", "bonne", "genial", "merveilleu", "beau", "belle", "parfait", "meilleur"],
        "it": ["felice", "triste", "buono", "buona", "fantastic", "meraviglios", "bello", "bella", "perfett", "migliore"],
        "pt": ["feliz", "triste", "bom", "boa", "incrivel", "maravilhos", "lindo", "linda", "perfeit", "melhor"],
    ]

    /// Big abstractions that make a line sound like every other motivational line.
    static let abstractions: [String: [String]] = [
        "en": ["life", "dream", "journey", "success", "destiny", "universe", "soul", "everything", "nothing", "happiness",
               "passion", "greatness", "potential"],
        "de": ["leben", "traum", "traume", "reise", "erfolg", "schicksal", "universum", "seele", "alles", "nichts", "gluck",
               "leidenschaft"],
        "es": ["vida", "sueno", "suenos", "viaje", "exito", "destino", "universo", "alma", "todo", "nada", "felicidad",
               "pasion"],
        "fr": ["vie", "reve", "reves", "voyage", "succes", "destin", "univers", "ame", "tout", "rien", "bonheur", "passion"],
        "it": ["vita", "sogno", "sogni", "viaggio", "successo", "destino", "universo", "anima", "tutto", "niente",
               "felicita", "passione"],
        "pt": ["vida", "sonho", "sonhos", "viagem", "sucesso", "destino", "universo", "alma", "tudo", "nada",
               "felicidade", "paixao"],
    ]

    /// Formula shapes (regular expressions on the folded text, words separated by single spaces).
    static let formulas: [String] = [
        #" (is|are) the key to "#, #" the secret (of|to) "#, #" is not (a |an |the )?\w+ it s "#, #" never stop "#,
        #" always remember "#, #" in a world (where|full of) "#, #" the power of "#, #"^ (life|love|happiness|success) is "#,
        #" ist der schlussel zu "#, #"^ (das leben|die liebe|das gluck|erfolg) ist "#, #" das geheimnis "#,
        #" es la clave "#, #"^ (la vida|el amor|la felicidad|el exito) es "#, #" el secreto de "#,
        #" est la cle "#, #"^ (la vie|l amour|le bonheur|le succes) est "#, #" le secret d"#,
        #" e la chiave "#, #"^ (la vita|l amore|la felicita|il successo) e "#, #" il segreto d"#,
        #" e a chave "#, #"^ (a vida|o amor|a felicidade|o sucesso) e "#, #" o segredo d"#,
    ]

    /// Words that make the speaker or the reader the one acting.
    static let agents: [String: Set<String>] = [
        "en": ["i", "you", "we", "she", "he", "they", "my", "your", "our"],
        "de": ["ich", "du", "wir", "sie", "er", "ihr", "mein", "dein", "unser"],
        "es": ["yo", "tu", "nosotros", "ella", "el", "ellos", "mi", "tus", "nuestro", "nuestra"],
        "fr": ["je", "j", "tu", "nous", "elle", "il", "ils", "mon", "ma", "ton", "ta", "notre"],
        "it": ["io", "tu", "noi", "lei", "lui", "loro", "mio", "mia", "tuo", "tua", "nostro", "nostra"],
        "pt": ["eu", "tu", "voce", "nos", "ela", "ele", "eles", "meu", "minha", "teu", "tua", "nosso", "nossa"],
    ]
}
