@testable import QuoteLibrary

/// Bad drafts written for the leftover and attribution gates, per language and category, each
/// otherwise a clean single sentence. The gate's rules were tuned on `tuning` only; `heldOut`
/// was written at the same time and set aside, and its rejection rate is what the test reports.
/// `cleanLookalikes` are good lines that resemble the defects (a verb of saying inside a scene,
/// "my grandmother said nothing and …", a dash inside the sentence) and must pass. A saying framed
/// as anyone's ("as my grandmother said, …") is an attribution.
enum BadDraftSet {
    enum Category: String, CaseIterable { case promptLeftover, attribution }

    struct Draft {
        let language: String
        let category: Category
        let text: String
        var expectedGate: GateName { category == .promptLeftover ? .promptFragment : .attribution }
    }

    static func drafts(_ table: [String: [Category: [String]]]) -> [Draft] {
        table.sorted { $0.key < $1.key }.flatMap { language, categories in
            Category.allCases.flatMap { category in
                (categories[category] ?? []).map { Draft(language: language, category: category, text: $0) }
            }
        }
    }

    static let tuning = drafts([
        "en": [
            .promptLeftover: [
                "Here is your quote: Carry the spare key to your neighbour before the evening rain.",
                "Sure! Here's a sentence about kindness on the morning train for you to enjoy.",
                "Quote: the baker saves the last warm loaf for the night shift nurse.",
                "Here's one original sentence about snow falling softly on the quiet garden.",
                "Okay, here is the line: the kettle sings while grandmother folds the warm towels.",
                "A specific image, someone doing something on the first snowy morning of the year.",
            ],
            .attribution: [
                "Carry the spare key to your neighbour before the evening rain reaches her porch — Ada Lovelace",
                "The baker saves the last warm loaf for the nurse on the night shift. - Mark Twain",
                "Fold the map along its old creases and let your sister choose the road (Seneca)",
                "As Oscar Wilde said, the kettle sings loudest for the friend who visits late.",
                "The lamp in the window waits for every traveller coming home late, said Emerson.",
            ],
        ],
        "de": [
            .promptLeftover: [
                "Hier ist dein Zitat: Bring deiner Nachbarin den Ersatzschlüssel vor dem Abendregen.",
                "Gerne, hier ist ein Satz über den ersten Schnee im stillen Garten hinter dem Haus.",
                "Zitat: Der Bäcker hebt das letzte warme Brot für die Nachtschwester auf.",
                "Klar! Hier ist ein origineller Satz über den Morgenzug und eine kleine Freundlichkeit.",
                "Mein Vorschlag: Falte die Karte entlang der alten Knicke und lass deine Schwester wählen.",
            ],
            .attribution: [
                "Bring deiner Nachbarin den Ersatzschlüssel, bevor der Abendregen ihre Veranda erreicht. — Goethe",
                "Der Bäcker hebt das letzte warme Brot für die Nachtschwester auf - Friedrich Schiller",
                "Falte die Karte entlang der alten Knicke und lass deine Schwester den Weg wählen (Rilke)",
                "Wie Goethe sagte, singt der Kessel am lautesten für den Freund, der spät kommt.",
                "Die Lampe im Fenster wartet auf jeden Reisenden, der spät heimkommt, sagte Kafka.",
            ],
        ],
        "es": [
            .promptLeftover: [
                "Aquí tienes tu cita: lleva la llave de repuesto a tu vecina antes de la lluvia.",
                "¡Claro! Aquí está una frase sobre la primera nevada en el jardín silencioso.",
                "Cita: el panadero guarda la última hogaza caliente para la enfermera del turno de noche.",
                "Aquí va una frase original sobre el tren de la mañana y un pequeño gesto amable.",
                "Mi propuesta: dobla el mapa por sus viejos pliegues y deja que tu hermana elija.",
            ],
            .attribution: [
                "Lleva la llave de repuesto a tu vecina antes de que la lluvia llegue a su porche. — Cervantes",
                "El panadero guarda la última hogaza caliente para la enfermera de noche - Miguel de Unamuno",
                "Dobla el mapa por sus viejos pliegues y deja que tu hermana elija el camino (Machado)",
                "Como dijo Cervantes, la tetera canta más fuerte para el amigo que llega tarde.",
                "La lámpara en la ventana espera a cada viajero que vuelve tarde, dijo Lorca.",
            ],
        ],
        "fr": [
            .promptLeftover: [
                "Voici ta citation : porte la clé de secours à ta voisine avant la pluie du soir.",
                "Bien sûr ! Voici une phrase sur la première neige dans le jardin silencieux.",
                "Citation : le boulanger garde la dernière miche chaude pour l’infirmière de nuit.",
                "Voici une phrase originale sur le train du matin et un petit geste de bonté.",
                "Ma proposition : plie la carte le long de ses vieux plis et laisse ta sœur choisir.",
            ],
            .attribution: [
                "Porte la clé de secours à ta voisine avant que la pluie du soir atteigne son perron. — Victor Hugo",
                "Le boulanger garde la dernière miche chaude pour l’infirmière de nuit - Voltaire",
                "Plie la carte le long de ses vieux plis et laisse ta sœur choisir la route (Montaigne)",
                "Comme disait Victor Hugo, la bouilloire chante plus fort pour l’ami qui arrive tard.",
                "La lampe à la fenêtre attend chaque voyageur qui rentre tard, disait Proust.",
            ],
        ],
        "it": [
            .promptLeftover: [
                "Ecco la tua citazione: porta la chiave di riserva alla tua vicina prima della pioggia.",
                "Certo! Ecco una frase sulla prima neve nel giardino silenzioso dietro casa.",
                "Citazione: il fornaio tiene l’ultima pagnotta calda per l’infermiera del turno di notte.",
                "Ecco una frase originale sul treno del mattino e un piccolo gesto gentile.",
                "La mia proposta: piega la mappa lungo le vecchie pieghe e lascia scegliere tua sorella.",
            ],
            .attribution: [
                "Porta la chiave di riserva alla tua vicina prima che la pioggia arrivi sul suo portico. — Dante Alighieri",
                "Il fornaio tiene l’ultima pagnotta calda per l’infermiera di notte - Leopardi",
                "Piega la mappa lungo le vecchie pieghe e lascia che tua sorella scelga la strada (Petrarca)",
                "Come disse Leopardi, il bollitore canta più forte per l’amico che arriva tardi.",
                "La lampada alla finestra aspetta ogni viaggiatore che torna tardi, diceva Manzoni.",
            ],
        ],
        "pt": [
            .promptLeftover: [
                "Aqui está a sua citação: leva a chave reserva à tua vizinha antes da chuva.",
                "Claro! Aqui vai uma frase sobre a primeira neve no jardim silencioso atrás da casa.",
                "Citação: o padeiro guarda o último pão quente para a enfermeira do turno da noite.",
                "Aqui está uma frase original sobre o comboio da manhã e um pequeno gesto gentil.",
                "A minha proposta: dobra o mapa pelas velhas dobras e deixa a tua irmã escolher.",
            ],
            .attribution: [
                "Leva a chave reserva à tua vizinha antes que a chuva da tarde chegue à varanda. — Fernando Pessoa",
                "O padeiro guarda o último pão quente para a enfermeira da noite - Machado de Assis",
                "Dobra o mapa pelas velhas dobras e deixa a tua irmã escolher a estrada (Camões)",
                "Como disse Pessoa, a chaleira canta mais alto para o amigo que chega tarde.",
                "A lâmpada na janela espera cada viajante que volta tarde, dizia Eça de Queirós.",
            ],
        ],
    ])

    static let heldOut = drafts([
        "en": [
            .promptLeftover: [
                "Certainly, here's a quote for you: the neighbour waters your tomatoes while you sleep.",
                "Here is a short line about courage: she knocks twice before her first day at work.",
                "Sentence: my brother leaves the porch light on for anyone walking home in the rain.",
                "Below is an original quote about letters from old friends arriving in spring.",
                "Of course! Here it is: the old dog waits by the gate for the school bus.",
            ],
            .attribution: [
                "The neighbour waters your tomatoes every morning while you sleep late. — Jane Austen",
                "She knocks twice on the office door before her first day begins ~ Anonymous",
                "My brother leaves the porch light on for anyone walking home (Walt Whitman, 1855)",
                "The old dog waits by the gate for the school bus every single afternoon, as Dickens wrote.",
                "According to Thoreau, the garden grows best for the hands that weed it at dawn.",
            ],
        ],
        "de": [
            .promptLeftover: [
                "Natürlich, hier ist ein kurzer Satz: Der Nachbar gießt deine Tomaten, während du schläfst.",
                "Hier ist ein Zitat für dich über Mut am ersten Tag in der neuen Arbeit.",
                "Antwort: Mein Bruder lässt das Licht an der Tür für jeden an, der heimkommt.",
                "Hier ist mein Vorschlag für einen Satz über Briefe alter Freunde im Frühling.",
                "Okay, hier kommt der Satz: Der alte Hund wartet am Tor auf den Schulbus.",
            ],
            .attribution: [
                "Der Nachbar gießt jeden Morgen deine Tomaten, während du noch lange schläfst. — Thomas Mann",
                "Sie klopft zweimal an die Bürotür, bevor ihr erster Arbeitstag beginnt ~ Unbekannt",
                "Mein Bruder lässt das Licht an der Tür für jeden an, der im Regen heimkommt (Heinrich Heine, 1827)",
                "Der alte Hund wartet jeden Nachmittag am Tor auf den Schulbus, schrieb Fontane.",
                "Laut Nietzsche wächst der Garten am besten für die Hände, die ihn im Morgengrauen jäten.",
            ],
        ],
        "es": [
            .promptLeftover: [
                "Por supuesto, aquí tienes una cita: el vecino riega tus tomates mientras duermes.",
                "Aquí está la frase que pediste sobre el valor en el primer día de trabajo.",
                "Respuesta: mi hermano deja la luz del porche encendida para quien vuelve bajo la lluvia.",
                "Te dejo una frase original sobre las cartas de viejos amigos en primavera.",
                "Vale, ahí va: el perro viejo espera junto a la verja el autobús escolar.",
            ],
            .attribution: [
                "El vecino riega tus tomates cada mañana mientras duermes hasta tarde. — Benito Pérez Galdós",
                "Ella llama dos veces a la puerta de la oficina antes de su primer día ~ Anónimo",
                "Mi hermano deja la luz del porche encendida para quien vuelve bajo la lluvia (Gustavo Adolfo Bécquer, 1871)",
                "El perro viejo espera cada tarde junto a la verja el autobús escolar, escribió Quevedo.",
                "Según Ortega y Gasset, el huerto crece mejor para las manos que lo limpian al amanecer.",
            ],
        ],
        "fr": [
            .promptLeftover: [
                "Bien sûr, voici une citation pour toi : le voisin arrose tes tomates pendant que tu dors.",
                "Voilà la phrase demandée sur le courage du premier jour au nouveau travail.",
                "Réponse : mon frère laisse la lumière du perron allumée pour ceux qui rentrent sous la pluie.",
                "Je te propose une phrase originale sur les lettres de vieux amis au printemps.",
                "D’accord, la voici : le vieux chien attend le bus scolaire près du portail.",
            ],
            .attribution: [
                "Le voisin arrose tes tomates chaque matin pendant que tu dors encore. — Gustave Flaubert",
                "Elle frappe deux fois à la porte du bureau avant son premier jour ~ Anonyme",
                "Mon frère laisse la lumière du perron allumée pour ceux qui rentrent sous la pluie (Charles Baudelaire, 1857)",
                "Le vieux chien attend chaque après-midi le bus scolaire près du portail, écrivait Colette.",
                "Selon Rousseau, le jardin pousse mieux pour les mains qui le désherbent à l’aube.",
            ],
        ],
        "it": [
            .promptLeftover: [
                "Certamente, ecco una citazione per te: il vicino innaffia i tuoi pomodori mentre dormi.",
                "Ecco la frase che hai chiesto sul coraggio del primo giorno di lavoro.",
                "Risposta: mio fratello lascia accesa la luce del portico per chi torna sotto la pioggia.",
                "Ti propongo una frase originale sulle lettere dei vecchi amici in primavera.",
                "Va bene, eccola: il vecchio cane aspetta lo scuolabus vicino al cancello.",
            ],
            .attribution: [
                "Il vicino innaffia i tuoi pomodori ogni mattina mentre dormi ancora. — Italo Svevo",
                "Lei bussa due volte alla porta dell’ufficio prima del suo primo giorno ~ Anonimo",
                "Mio fratello lascia accesa la luce del portico per chi torna sotto la pioggia (Giovanni Pascoli, 1891)",
                "Il vecchio cane aspetta ogni pomeriggio lo scuolabus vicino al cancello, scriveva Verga.",
                "Secondo Machiavelli, l’orto cresce meglio per le mani che lo curano all’alba.",
            ],
        ],
        "pt": [
            .promptLeftover: [
                "Com certeza, aqui vai uma citação para ti: o vizinho rega os teus tomates enquanto dormes.",
                "Aqui está a frase que pediste sobre a coragem no primeiro dia de trabalho.",
                "Resposta: o meu irmão deixa a luz da varanda acesa para quem volta à chuva.",
                "Segue uma frase original sobre as cartas de velhos amigos na primavera.",
                "Está bem, aqui está: o cão velho espera o autocarro da escola junto ao portão.",
            ],
            .attribution: [
                "O vizinho rega os teus tomates todas as manhãs enquanto ainda dormes. — Eça de Queirós",
                "Ela bate duas vezes à porta do escritório antes do primeiro dia ~ Anônimo",
                "O meu irmão deixa a luz da varanda acesa para quem volta à chuva (Cesário Verde, 1887)",
                "O cão velho espera todas as tardes o autocarro da escola junto ao portão, escreveu Camilo Castelo Branco.",
                "Segundo Vieira, a horta cresce melhor para as mãos que a cuidam de madrugada.",
            ],
        ],
    ])

    /// Good lines resembling the defects; each must pass the whole deterministic gate.
    static let cleanLookalikes: [(language: String, text: String)] = [
        ("en", "My grandmother said nothing and slid the last slice of pie onto my plate."),
        ("en", "Here the river bends, and my father still stops the car to watch the herons."),
        ("de", "Meine Großmutter sagte kein Wort und schob mir das letzte Stück Kuchen auf den Teller."),
        ("es", "Mi abuela no dijo nada y me sirvió el último trozo de tarta en el plato."),
        ("fr", "Ma grand-mère n'a rien dit et a posé la dernière part de tarte dans mon assiette."),
        ("it", "Mia nonna non disse nulla e mi mise nel piatto l'ultima fetta di torta."),
        ("pt", "A minha avó não disse nada e pôs a última fatia de bolo no meu prato."),
        ("pt", "Aqui está o banco onde o meu avô dava migalhas aos pombos todas as manhãs."),
        // Near the frames of claims and remarks, and none: things that "teach", a "que" of
        // comparison, silence, advice opening with the verb, a hedge that is the line's own turn,
        // the speaker's own vow, a verb after a modal or a negation.
        ("it", "Un vecchio orologio a cucù insegna che anche il tempo ha bisogno di una molla."),
        ("es", "Las arrugas del mantel cuentan mejor que cualquier foto las cenas de los domingos."),
        ("de", "Mein Vater stellte die Teekanne auf den Tisch, ohne etwas zu sagen."),
        ("it", "Ricorda che il pane di ieri diventa la migliore panzanella di domani."),
        ("en", "The tea went cold on the windowsill — perhaps the best cup I never drank."),
        ("fr", "Nous jurons chaque été que nous repeindrons le portail, et le portail attend."),
        ("de", "Man könnte meinen, dass im Februar nichts wächst, doch unter dem Laub treiben schon die Krokusse."),
        ("en", "Nobody can claim that the garden is finished until the last tulip bulb is in the ground."),
        // A subject that is nobody, and "for my …" naming an occasion.
        ("en", "Nobody tells you that the best seat on the night train is the one beside the guard's van."),
        ("it", "Nessuno ti avverte che un trasloco si misura in scatoloni di libri mai riletti."),
        ("es", "Para mi boda, mi tía bordó las servilletas con las iniciales de todos los invitados."),
        // Advice and its reason after a colon: the line's own words, no lead-in.
        ("it", "Scrivi il nome sul barattolo del sale: tra un mese non ricorderai quale era lo zucchero."),
        ("es", "Guarda las llaves siempre en el mismo cajón: la prisa de los lunes te lo agradecerá."),
        ("de", "Stell deine Gummistiefel gleich neben die Haustür: der Regen kommt, wenn du sie suchst."),
        // A song, a packet and a swear that credit nobody: a song that reminds of something, a
        // packet carried, the speaker's own oath.
        ("en", "The song on the radio reminds me of my father's old van and its cracked seats."),
        ("fr", "Le paquet de farine glissé sous le bras, elle remonte la rue en sifflotant."),
        ("en", "I swear the kettle boils faster when the whole family is waiting for tea."),
        // "that" after a verb of telling that is no complement: a relative, a demonstrative.
        ("en", "The ferryman told us stories that made the crossing feel half as long."),
        ("en", "The smell of tar on the quay reminds me of that summer we spent in Brittany."),
        // A reflexive pronoun in advice before its reason is no talk to the reader (set 16 of
        // eval/drafts); "selon" at the end is "depending on", no credit; the speaker's own find.
        ("de", "Kauf dir einen warmen Schal, keinen dünnen: Er hält dich durch jeden Winter."),
        ("fr", "On ramasse les girolles sous les hêtres ou sous les chênes, selon la saison."),
        ("en", "In my father's book, I found a tram ticket from Lisbon pressed flat as a leaf."),
        // French "apprendre" is learning as well as teaching; "sa" is a possessive, not "knows"
        // (set 18 of eval/drafts).
        ("fr", "À la plage, on apprend vite que le vent décide où l'on pose la serviette."),
        ("fr", "Comme sa grand-mère avant elle, elle pétrit la pâte à la main chaque dimanche."),
        // Teaching that is a comparison, a thing that tells the whole house, a cake baked for an aunt,
        // and the writer's own liking inside the line after a dash (set 19 of eval/drafts).
        ("es", "Esos paseos por el puerto nos enseñan más de lo que imaginábamos sobre el mar."),
        ("pt", "O apito da chaleira avisa a casa inteira que o chá está pronto."),
        ("en", "For Aunt May, we baked a lemon cake with far too much icing."),
        ("en", "The tram rattles past the bakery at dawn — I like it best in the rain."),
        // Hearsay set off by commas is the verb alone or with a place, not the verb with an object.
        ("en", "When the twins come home from school, they say nothing and eat every biscuit in the tin."),
        // Saying as a scene's second verb, hearing a sound, "to my left", "según" as "depending on" and
        // hearing with a relative "che" (set 24 of eval/drafts).
        ("en", "The driver folded his map and said the children could climb aboard now."),
        ("en", "I heard the morning bus long before it turned the corner by the bakery."),
        ("en", "To my left, the harbour lights come on one by one as the ferry docks."),
        ("es", "El café del puerto se sirve caliente o con hielo, según el día."),
        ("it", "Ho sentito il profumo del pane che usciva dal forno all'alba."),
        // A joke told as a noun, a box that is only a box, a grandmother given a gift inside the line, and
        // drilling into wood (set 25 of eval/drafts).
        ("en", "Grandad told a joke the whole bus laughed at long after his stop."),
        ("es", "La caja de galletas de la abuela guarda botones, cartas y un dedal de plata."),
        ("en", "We saved the best peaches, for my grandmother, who still makes jam in August."),
        ("en", "Grandad drilled into the old oak beam that holds up the barn roof."),
        // Claiming a seat, being sure inside a scene, saying hello, a quoted word written down, a saying told
        // as a scene's speech, a receipt kept (set 29 of eval/drafts).
        ("en", "My little brother claims the window seat every time we take the night bus."),
        ("en", "She was sure the bus had gone, so she ran the whole length of the pier."),
        ("en", "Any child who visits will say hello to the goat before the ticket booth."),
        ("es", "Escribí «gracias» en el vaho de la ventanilla mientras el autobús arrancaba."),
        ("fr", "Le mécanicien referme le capot et me dit : elle repartira, comme nous tous."),
        ("en", "I kept the receipt from our first dinner in the pocket of my winter coat."),
        // A question and who asked it, one who prays, a card that reads like a letter (set 31 of eval/drafts).
        ("fr", "« Encore un peu de sel ? » demandait mon oncle, qui en avait déjà trop mis."),
        ("pt", "Na lota, o meu pai lia os preços do quadro em voz alta, como quem reza."),
        ("en", "The recipe card reads like a letter from Gran, all loops and crossings-out."),
        // The speaker's own theory before a colon.
        ("en", "I have a theory: toast always lands butter-side down on the Monday you wear white."),
        // What the speaker hears in a song, a gift for a relative, a bottle that only shines, the speaker's own
        // view set off, and "believe me" (set 33 of eval/drafts).
        ("en", "In the song of the kettle, I hear my grandmother's kitchen every winter morning."),
        ("pt", "Para a avó Rosa, fiz um bolo de laranja com açúcar a mais por cima."),
        ("en", "The old green bottle on the windowsill catches the last of the evening sun."),
        ("en", "The harbour is loveliest at six in the morning, as far as I'm concerned."),
        ("en", "Take the stairs at the swimming baths two at a time, believe me."),
        ("en", "The baker will save you the crusty end of the loaf, if you ask nicely."),
        ("en", "Fold the napkins in thirds before the guests arrive — a trick I learned in Lisbon."),
        ("it", "Per Natale, la nonna prepara i cappelletti, e la cucina profuma di brodo fino a sera."),
        ("de", "Zieh den roten Schal zum Wochenmarkt an, das steht dir gut."),
        ("en", "Make a wish on the first star over the harbour, if you believe, and then go to bed."),
        // What is done for a relative, and a child reciting in a scene (the final review of set 33's change).
        ("en", "For Grandad, the whole street turned out in their Sunday best and sang."),
        ("it", "La bambina sale sulla sedia, recita la poesia di Natale e ride con i cugini."),
        // Finding in a scene, holding an umbrella for someone, a face that said as much, a promise of a thing,
        // a habit of telling stories, a joke repeated, a motto only mentioned, the speaker's own belief, listening
        // to someone sing, what a child calls an adventure, hearing the rain, "depending on" (set 35 of eval/drafts).
        ("de", "Als sie heimkommt, findet sie einen Brief unter der Tür und lächelt."),
        ("de", "Sie hält den Schirm für die Kleinste der Gruppe, bis der Bus kommt."),
        ("en", "Her face said as much when the sponge came out of the oven flat."),
        ("en", "Dad promised me a bike if I swam a whole length without stopping."),
        ("en", "Grandad was fond of telling stories about the war on winter evenings."),
        ("en", "Grandad kept repeating that joke all through Sunday dinner, and we laughed every time."),
        ("en", "The motto on the old school gate is half rubbed away by the rain now."),
        ("en", "I waited at the wrong stop, or so I believed, until the bus came round the corner."),
        ("fr", "À l'écouter chanter, j'oublie la pluie qui tape sur les vitres."),
        ("fr", "Une flaque, un bâton et des bottes : c'est ce que ma fille appelle une aventure."),
        ("pt", "Acordei cedo, ouvi a chuva a bater na janela e voltei a dormir."),
        ("es", "Según la hora, el mercado huele a pan recién hecho o a pescado fresco."),
        // One's own habits, a composer listened to, a list of what people do (the final review of set 35's change).
        ("fr", "Je prends mon café noir sur le balcon, selon mes habitudes du dimanche."),
        ("it", "Ad ascoltare Mozart la sera, mi addormento sempre prima della fine."),
        ("en", "The kettle whistles, my father mutters, and the whole house slowly wakes up."),
        // A belief in a scene, a reported call in a scene, a smell that announces, a law of nature, the speaker's own
        // rule, thanks said, asking for something, the first person before a verb that looks reported (set 37 of
        // eval/drafts).
        ("en", "Mia is convinced the last ferry has gone, so she walks home along the harbour wall."),
        ("de", "Die Verkäuferin ruft über drei Tische hinweg, die Lampe funktioniere noch, man müsse nur wackeln."),
        ("pt", "O cheiro a castanhas assadas na esquina do Rossio avisa que o outono chegou à cidade."),
        ("fr", "Le chat vole la meilleure place près du poêle : la loi du plus fort, version ronronnante."),
        ("en", "Shoes off at the door — that's rule one in our little kitchen, and everybody knows it."),
        ("it", "Lascio il resto al cameriere, mi dicono grazie e se ne vanno ridendo verso la piazza."),
        ("de", "Bitte bringe mir morgen früh ein frisches Brot vom Bäcker an der Ecke mit."),
        ("de", "Das alte Fahrrad bringe ich am Samstag endlich zur Werkstatt an der Brücke."),
        // An occasion as the opener, the Portuguese "sei", bread standing on a table (the final review of set 37's
        // change).
        ("de", "Frisches Brot für morgen – das steht schon auf dem Tisch unter dem karierten Tuch."),
        ("pt", "Para a feira de sábado, a avó leva o cesto grande e o guarda-chuva azul."),
        ("pt", "Para o primeiro dia de escola, o pai engraxa os sapatos na véspera."),
        ("pt", "Guardo a receita num envelope, das poucas coisas que eu sei de cor."),
        // Advice given without a speaker, a tram's line, an Italian idiom (the review of set 37's change).
        ("en", "Check the ladder twice before you climb, presume nothing."),
        ("en", "The last bus waits for nobody, and that's the tram's line too."),
        ("it", "Il mare d'inverno — la dice lunga sul paese che resta."),
        // A gift for a relative, words written on a window, a song repeated, the speaker's own view, a lesson of
        // something, what a seller calls out, a timetable that depends on the weather, a box on a shelf, a tune every
        // child knows, a cake beside a card (set 39 of eval/drafts and the final review of its change).
        ("it", "Per mia nonna ho comprato un mazzo di girasoli al mercato del sabato."),
        ("en", "Someone has written on the fogged window: a heart, two initials and a date."),
        ("de", "Mein Bruder übt die Vokabeln – der kleine Tim wiederholt das Lied bis zum Abendessen."),
        ("it", "Io sono dell'idea che il caffè vada bevuto in piedi al bancone."),
        ("es", "Los jueves por la tarde, lección de guitarra con mi tío en el patio."),
        ("it", "Al mercato la fruttivendola annuncia la pioggia, e tutti coprono le cassette."),
        ("it", "Secondo il tempo che fa, la funivia parte alle otto o alle nove."),
        ("de", "Im Regal steht es in einem alten Karton, gleich neben den Weihnachtskugeln."),
        ("en", "The ice-cream van plays its tune — every child knows that song by heart."),
        ("de", "Der Kuchen ist fertig, steht auf dem Tisch neben der Geburtstagskarte."),
    ]
}
