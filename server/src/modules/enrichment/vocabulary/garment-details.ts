import { names, split, value, type VocabularyAttribute } from "./define.ts";

/*
 * How a garment or shoe is cut and fastened: sleeve length, neckline, fit, length, rise, closure and heel. These
 * words are only descriptive inside a phrase ("short sleeves", "slim fit", "round neck"), so the synonyms are
 * phrases; bare adjectives ("short", "slim", "round", "regular") never count.
 */

export const SLEEVE: VocabularyAttribute = {
  key: "sleeve",
  displayName: names("Sleeve length", "Ärmellänge", "Longueur des manches", "Largo de manga"),
  fieldNames: [
    "sleeve",
    "sleeves",
    "sleeve length",
    "sleeve type",
    "ärmel",
    "ärmellänge",
    "manches",
    "longueur des manches",
    "manga",
    "mangas",
    "largo de manga",
  ],
  values: [
    value("sleeveless", ["Sleeveless", "Ärmellos", "Sans manches", "Sin mangas"], {
      en: "sleeveless|no sleeves|without sleeves|sleeve less",
      de: "ärmellos|ärmellose|ärmelloses|ärmelloser|ohne ärmel",
      fr: "sans manches|sans manche",
      es: "sin mangas|sin manga",
    }),
    value("short-sleeve", ["Short sleeves", "Kurzarm", "Manches courtes", "Manga corta"], {
      en: "short sleeve|short sleeves|short-sleeved|short sleeved|half sleeve|half sleeves|half-sleeved|half sleeved|cap sleeve|cap sleeves|cap-sleeved",
      de: "kurzarm|kurzärmelig|kurzärmlig|kurze ärmel|kurzen ärmeln|halbarm",
      fr: "manches courtes|manche courte|mancherons",
      es: "manga corta|mangas cortas",
    }),
    value("three-quarter-sleeve", ["Three-quarter sleeves", "3/4-Arm", "Manches 3/4", "Manga 3/4"], {
      en: "three-quarter sleeve|three-quarter sleeves|three quarter sleeve|three quarter sleeves|3/4 sleeve|3/4 sleeves|3/4th sleeve|3/4th sleeves",
      de: "3/4-arm|3/4 arm|3/4-ärmel|dreiviertelarm|dreiviertelärmel|dreiviertellange ärmel",
      fr: "manches 3/4|manche 3/4|manches trois-quarts|manches trois quarts",
      es: "manga 3/4|mangas 3/4|manga tres cuartos|manga francesa",
    }),
    value("long-sleeve", ["Long sleeves", "Langarm", "Manches longues", "Manga larga"], {
      en: "long sleeve|long sleeves|long-sleeved|long sleeved|full sleeve|full sleeves|full-sleeved|full sleeved",
      de: "langarm|langärmelig|langärmlig|lange ärmel|langen ärmeln",
      fr: "manches longues|manche longue",
      es: "manga larga|mangas largas",
    }),
  ],
};

export const NECKLINE: VocabularyAttribute = {
  key: "neckline",
  displayName: names("Neckline", "Ausschnitt", "Encolure", "Cuello"),
  fieldNames: [
    "neck",
    "neckline",
    "neck type",
    "collar",
    "collar type",
    "neck style",
    "ausschnitt",
    "kragen",
    "kragenform",
    "encolure",
    "col",
    "type de col",
    "cuello",
    "escote",
    "tipo de cuello",
  ],
  values: [
    value("round-neck", ["Round neck", "Rundhals", "Col rond", "Cuello redondo"], {
      en: "round neck|round-neck|round neckline|crew neck|crewneck|crew-neck|crew neckline",
      de: "rundhals|rundhalsausschnitt|rundausschnitt|runder ausschnitt|rundhals-ausschnitt",
      fr: "col rond|encolure ronde|ras du cou",
      es: "cuello redondo|cuello caja",
    }),
    value("v-neck", ["V-neck", "V-Ausschnitt", "Col V", "Cuello de pico"], {
      en: "v-neck|v neck|vneck|v-neckline|v neckline",
      de: "v-ausschnitt|v-kragen",
      fr: "col v|col en v|encolure en v|encolure v",
      es: "cuello de pico|cuello en v|escote en v|escote de pico|cuello pico",
    }),
    value("henley", ["Henley", "Henley", "Col tunisien", "Cuello panadero"], {
      en: "henley|henley neck|henley collar",
      de: "henley|henley-kragen|serafino|serafino-kragen",
      fr: "col tunisien|col henley",
      es: "cuello panadero|cuello henley",
    }),
    value("polo-collar", ["Polo collar", "Polokragen", "Col polo", "Cuello polo"], {
      en: "polo collar|polo-collar|polo t-shirt|polo t-shirts|polo tshirt|polo tshirts|polo shirt|polo shirts|polo neck t-shirt|polos",
      de: "polokragen|polo-kragen|poloshirt|poloshirts|polohemd",
      fr: "col polo|polo|polos",
      es: "cuello polo|cuello tipo polo|polo|polos",
    }),
    value("shirt-collar", ["Shirt collar", "Hemdkragen", "Col chemise", "Cuello camisero"], {
      en: "shirt collar|spread collar|button-down collar|button down collar|classic collar|cutaway collar|cut-away collar|point collar|collared|kent collar|semi-spread collar|wing collar|club collar",
      de: "hemdkragen|kentkragen|haifischkragen|button-down-kragen|button-down kragen",
      fr: "col chemise|col classique|col boutonné|col italien|col français",
      es: "cuello camisero|cuello clásico|cuello italiano|cuello abotonado",
    }),
    value("mandarin-collar", ["Mandarin collar", "Stehkragen", "Col mao", "Cuello mao"], {
      en: "mandarin collar|mandarin neck|band collar|nehru collar|chinese collar|stand collar|stand-up collar|stand up collar|grandad collar",
      de: "stehkragen|mandarinkragen|mao-kragen",
      fr: "col mao|col officier",
      es: "cuello mao|cuello mandarín|cuello chino",
    }),
    value("high-neck", ["High neck", "Rollkragen", "Col roulé", "Cuello alto"], {
      en: "high neck|high-neck|turtle neck|turtleneck|turtle-neck|mock neck|mock-neck|funnel neck|roll neck|roll-neck",
      de: "rollkragen|stehbundkragen|hochgeschlossen|turtleneck",
      fr: "col roulé|col montant|col cheminée|col haut",
      es: "cuello alto|cuello vuelto|cuello cisne|cuello chimenea",
    }),
    value("scoop-neck", ["Scoop neck", "U-Ausschnitt", "Col U", "Escote en U"], {
      en: "scoop neck|scoop-neck|scoop neckline|u-neck|u neck",
      de: "u-ausschnitt|tiefer rundausschnitt",
      fr: "col u|col en u|encolure dégagée",
      es: "escote en u|cuello en u|escote redondo amplio",
    }),
    value("boat-neck", ["Boat neck", "U-Boot-Ausschnitt", "Col bateau", "Cuello barco"], {
      en: "boat neck|boat-neck|bateau neck|slash neck",
      de: "u-boot-ausschnitt|u-boot-kragen|bateau-ausschnitt",
      fr: "col bateau|encolure bateau",
      es: "cuello barco|escote barco",
    }),
    value("square-neck", ["Square neck", "Karree-Ausschnitt", "Col carré", "Escote cuadrado"], {
      en: "square neck|square-neck|square neckline",
      de: "karree-ausschnitt|karreeausschnitt|eckiger ausschnitt",
      fr: "col carré|encolure carrée",
      es: "escote cuadrado|cuello cuadrado",
    }),
    value("sweetheart-neck", ["Sweetheart neckline", "Herzausschnitt", "Décolleté cœur", "Escote corazón"], {
      en: "sweetheart neck|sweetheart neckline|sweetheart-neck",
      de: "herzausschnitt|herz-ausschnitt",
      fr: "décolleté cœur|encolure cœur|col cœur",
      es: "escote corazón|escote de corazón",
    }),
    value("halter-neck", ["Halter neck", "Neckholder", "Col américain", "Cuello halter"], {
      en: "halter neck|halterneck|halter-neck|halter neckline",
      de: "neckholder|neckholder-ausschnitt",
      fr: "col américain|encolure américaine|dos nu noué",
      es: "cuello halter|escote halter",
    }),
    value("off-shoulder", ["Off-shoulder", "Schulterfrei", "Épaules dénudées", "Hombros descubiertos"], {
      en: "off-shoulder|off shoulder|off the shoulder|off-the-shoulder|bardot",
      de: "schulterfrei|schulterfreie|schulterfreies|schulterfreier|carmen-ausschnitt|carmenausschnitt",
      fr: "épaules dénudées|épaules nues|col bardot",
      es: "hombros descubiertos|hombros al aire|escote bardot",
    }),
    value("one-shoulder", ["One-shoulder", "One-Shoulder", "Asymétrique une épaule", "Un hombro"], {
      en: "one shoulder|one-shoulder|single shoulder",
      de: "one-shoulder|one shoulder|einschulter",
      fr: "une épaule|asymétrique une épaule",
      es: "un hombro|un solo hombro|asimétrico de un hombro",
    }),
    value("cowl-neck", ["Cowl neck", "Wasserfallausschnitt", "Col bénitier", "Cuello drapeado"], {
      en: "cowl neck|cowl-neck|cowl neckline",
      de: "wasserfallausschnitt|wasserfallkragen",
      fr: "col bénitier|col drapé|encolure bénitier",
      es: "cuello drapeado|escote drapeado|cuello vuelto drapeado",
    }),
    value("hooded", ["Hooded", "Mit Kapuze", "À capuche", "Con capucha"], {
      en: "hooded|hoodie|hoodies|hoody|with hood|with a hood|has a hood|detachable hood|attached hood",
      de: "mit kapuze|kapuze|kapuzen",
      fr: "à capuche|capuche|avec capuche",
      es: "con capucha|capucha",
    }),
    value("lapel", ["Lapel collar", "Reverskragen", "Col à revers", "Cuello solapa"], {
      en: "lapel|lapels|notch lapel|notched lapel|peak lapel|peaked lapel|shawl collar|lapel collar|notched collar",
      de: "reverskragen|revers|schalkragen|fallrevers",
      fr: "col à revers|revers|col cranté|col châle",
      es: "cuello solapa|solapa|solapas|cuello chal",
    }),
  ],
};

export const FIT: VocabularyAttribute = {
  key: "fit",
  displayName: names("Fit", "Passform", "Coupe", "Corte"),
  fieldNames: ["fit", "fit type", "silhouette", "shape", "passform", "schnitt", "coupe", "corte", "ajuste"],
  values: [
    value("skinny", ["Skinny fit", "Skinny Fit", "Coupe skinny", "Corte skinny"], {
      en: "skinny fit|skinny-fit|super skinny|super skinny fit|skinny jeans|skinny jean|extra slim fit",
      de: "skinny fit|skinny-fit|hautenge|hauteng",
      fr: "coupe skinny|jean skinny|skinny",
      es: "corte skinny|pitillo|pitillos|skinny",
    }),
    value("slim", ["Slim fit", "Slim Fit", "Coupe slim", "Corte slim"], {
      en: "slim fit|slim-fit|slim cut|slim-cut|slim fitting",
      de: "slim fit|slim-fit|schmal geschnitten|tailliert|taillierte|taillierter|tailliertes",
      fr: "coupe slim|coupe ajustée|ajusté|ajustée|cintré|cintrée",
      es: "slim fit|corte slim|entallado|entallada|ajustado|ajustada",
    }),
    value("regular", ["Regular fit", "Regular Fit", "Coupe regular", "Corte regular"], {
      en: "regular fit|regular-fit|classic fit|standard fit|comfort fit",
      de: "regular fit|regular-fit|normale passform|klassische passform|comfort fit",
      fr: "coupe regular|coupe classique|coupe standard|coupe droite classique",
      es: "corte regular|corte clásico|regular fit|ajuste regular",
    }),
    value("relaxed", ["Relaxed fit", "Lockere Passform", "Coupe décontractée", "Corte holgado"], {
      en: "relaxed fit|relaxed-fit|loose fit|loose-fit|loose fitting|baggy|boyfriend fit|mom fit",
      de: "relaxed fit|lockere passform|locker geschnitten|weit geschnitten|baggy",
      fr: "coupe décontractée|coupe ample|coupe large|baggy|coupe boyfriend",
      es: "corte holgado|holgado|holgada|relaxed fit|baggy|corte boyfriend",
    }),
    value("oversized", ["Oversized", "Oversize", "Oversize", "Oversize"], {
      en: "oversized|oversize|over-sized|boxy fit|boxy",
      de: "oversize|oversized|überweit",
      fr: "oversize|oversized",
      es: "oversize|oversized|extragrande",
    }),
    value("tapered", ["Tapered fit", "Tapered Fit", "Coupe fuselée", "Corte tapered"], {
      en: "tapered|tapered fit|tapered-fit|carrot fit|tapered leg",
      de: "tapered fit|tapered|karottenform|karotten-schnitt",
      fr: "coupe fuselée|fuselé|fuselée|coupe carotte",
      es: "corte tapered|tapered|corte zanahoria|pernera estrecha",
    }),
    value("straight", ["Straight fit", "Gerade Passform", "Coupe droite", "Corte recto"], {
      en: "straight fit|straight-fit|straight leg|straight-leg|straight cut|straight-cut",
      de: "straight fit|gerade passform|gerade geschnitten|gerades bein",
      fr: "coupe droite|jambe droite",
      es: "corte recto|pierna recta|pernera recta",
    }),
    value("bootcut", ["Bootcut", "Bootcut", "Bootcut", "Bootcut"], {
      en: "bootcut|boot cut|boot-cut|bootcut fit",
      de: "bootcut|boot-cut|bootcut-schnitt",
      fr: "bootcut|coupe bootcut|coupe botte",
      es: "bootcut|corte bootcut|corte bota",
    }),
    value("flared", ["Flared", "Ausgestellt", "Évasé", "Acampanado"], {
      en: "flared|flare|flares|bell bottom|bell bottoms|bell-bottom|bell-bottoms|flared fit",
      de: "ausgestellt|ausgestellte|ausgestellter|ausgestelltes|flared",
      fr: "évasé|évasée|évasés|évasées|pattes d'éléphant|patte d'éléphant",
      es: "acampanado|acampanada|acampanados|acampanadas|de campana|pata de elefante",
    }),
    value("wide-leg", ["Wide leg", "Weites Bein", "Jambe large", "Pierna ancha"], {
      en: "wide leg|wide-leg|wide legged|wide-legged",
      de: "weites bein|wide leg|weite beine|marlene",
      fr: "jambe large|jambes larges|pantalon large",
      es: "pierna ancha|pernera ancha|wide leg|pantalón ancho",
    }),
    value("a-line", ["A-line", "A-Linie", "Trapèze", "Línea A"], {
      en: "a-line|a line|a-line cut",
      de: "a-linie|a-linien|a-form",
      fr: "trapèze|ligne a|forme trapèze",
      es: "línea a|corte en a|corte a",
    }),
    value("bodycon", ["Bodycon", "Figurbetont", "Moulant", "Ceñido"], {
      en: "bodycon|body-con|body con|body hugging|body-hugging|figure hugging",
      de: "figurbetont|figurbetonte|figurbetonter|figurbetontes|bodycon|eng anliegend",
      fr: "moulant|moulante|moulants|moulantes|près du corps|bodycon",
      es: "ceñido|ceñida|ceñidos|ceñidas|bodycon|ajustado al cuerpo",
    }),
  ],
};

export const LENGTH: VocabularyAttribute = {
  key: "length",
  displayName: names("Length", "Länge", "Longueur", "Largo"),
  fieldNames: ["length", "dress length", "skirt length", "top length", "bottom length", "länge", "longueur", "largo"],
  blockers: split("maxi pad|maxi pads|maxi size|mini speaker|mini usb|mini fan|mini size|travel size"),
  values: [
    value("cropped", ["Cropped", "Cropped", "Court", "Corto"], {
      en: "cropped|crop top|crop tops|crop|cropped length",
      de: "cropped|crop-top|bauchfrei|bauchfreies|bauchfreie",
      fr: "crop top|cropped",
      es: "crop top|cropped|corto cropped",
    }),
    value("mini", ["Mini", "Mini", "Mini", "Mini"], {
      en: "mini dress|mini skirt|miniskirt|mini-dress|mini-skirt|mini length|short dress|short skirt",
      de: "minikleid|minirock|mini-kleid|mini-rock|kurzes kleid|kurzer rock",
      fr: "mini-robe|mini robe|minijupe|mini-jupe|mini jupe|robe courte|jupe courte",
      es: "minivestido|minifalda|vestido corto|falda corta|mini vestido|mini falda",
    }),
    value("knee-length", ["Knee length", "Knielang", "Longueur genou", "Hasta la rodilla"], {
      en: "knee length|knee-length|knee high|knee-high|above knee",
      de: "knielang|knielange|knielanger|knielanges|knieumspielend",
      fr: "longueur genou|aux genoux|au genou|jusqu'au genou",
      es: "hasta la rodilla|largo a la rodilla|a la rodilla",
    }),
    value("midi", ["Midi", "Midi", "Midi", "Midi"], {
      en: "midi|midi length|calf length|calf-length|mid-calf|mid calf|tea length|below knee|below the knee",
      de: "midi|midikleid|midirock|wadenlang|wadenlange|wadenlanges|wadenlanger",
      fr: "midi|mi-long|mi-longue|mi-longs|mi-longues|longueur midi",
      es: "midi|media pierna|a media pierna|largo midi",
    }),
    value("maxi", ["Maxi", "Maxi", "Maxi", "Maxi"], {
      en: "maxi|maxi length|floor length|floor-length",
      de: "maxi|maxikleid|maxirock|bodenlang|bodenlange|bodenlanges|bodenlanger",
      fr: "maxi|robe longue|jupe longue|longueur maxi",
      es: "maxi|vestido largo|falda larga|hasta los pies",
    }),
    value("ankle-length", ["Ankle length", "Knöchellang", "Longueur cheville", "Tobillero"], {
      en: "ankle length|ankle-length|ankle grazer|ankle-grazer|ankle-grazing|7/8 length",
      de: "knöchellang|knöchellange|knöchellanger|knöchellanges|7/8-länge",
      fr: "longueur cheville|7/8e|7/8",
      es: "tobillero|tobillera|hasta el tobillo|largo tobillero",
    }),
  ],
};

export const RISE: VocabularyAttribute = {
  key: "rise",
  displayName: names("Rise", "Leibhöhe", "Hauteur de taille", "Tiro"),
  fieldNames: ["rise", "waist rise", "leibhöhe", "bundhöhe", "taille", "tiro"],
  values: [
    value("high-rise", ["High rise", "High Waist", "Taille haute", "Tiro alto"], {
      en: "high rise|high-rise|high waist|high-waist|high waisted|high-waisted|high waisted|super high rise",
      de: "high waist|high-waist|hoher bund|hohe leibhöhe|hohe taille",
      fr: "taille haute|taille très haute",
      es: "tiro alto|talle alto|cintura alta|de tiro alto",
    }),
    value("mid-rise", ["Mid rise", "Mittlere Leibhöhe", "Taille normale", "Tiro medio"], {
      en: "mid rise|mid-rise|medium rise|mid waist|mid-waist|regular rise",
      de: "mittlere leibhöhe|normale leibhöhe|mid rise|mid waist",
      fr: "taille normale|taille mi-haute|taille moyenne",
      es: "tiro medio|talle medio|cintura media",
    }),
    value("low-rise", ["Low rise", "Tiefe Leibhöhe", "Taille basse", "Tiro bajo"], {
      en: "low rise|low-rise|low waist|low-waist|low waisted|low-waisted",
      de: "tiefe leibhöhe|niedrige leibhöhe|low rise|low waist|hüftjeans|hüfthose",
      fr: "taille basse",
      es: "tiro bajo|talle bajo|cintura baja",
    }),
  ],
};

export const CLOSURE: VocabularyAttribute = {
  key: "closure",
  displayName: names("Closure", "Verschluss", "Fermeture", "Cierre"),
  fieldNames: ["closure", "closure type", "fastening", "fastener", "verschluss", "fermeture", "cierre"],
  blockers: split(
    "zip pocket|zip pockets|zipped pocket|zipped pockets|zip compartment|zip compartments|zipper pocket|zipper pockets|zip pouch|" +
      "zip detail|zip details|zip vent|zip vents|buckle detail|buckle details|scratch resistant|scratch-resistant",
  ),
  values: [
    value("lace-up", ["Lace-up", "Schnürung", "À lacets", "Con cordones"], {
      en: "lace-up|lace up|lace-ups|lace ups|laced|laces|lace-up closure|lacing",
      de: "schnürung|zum schnüren|schnürverschluss|schnürsenkel|schnürer",
      fr: "à lacets|lacets|lacé|lacée|laçage",
      es: "con cordones|cordones|de cordones|acordonado|acordonada",
    }),
    value("slip-on", ["Slip-on", "Zum Reinschlüpfen", "À enfiler", "Sin cordones"], {
      en: "slip-on|slip on|slip-ons|slip ons|slipon|slipons",
      de: "zum reinschlüpfen|zum hineinschlüpfen|slip-on|ohne verschluss",
      fr: "à enfiler|slip-on|sans lacets",
      es: "sin cordones|slip-on|de quita y pon|sin cierre",
    }),
    value("hook-and-loop", ["Hook and loop", "Klettverschluss", "Scratch", "Velcro"], {
      en: "velcro|hook and loop|hook-and-loop|hook & loop|velcro strap|velcro closure|velcro fastening",
      de: "klettverschluss|klett|klettband|klettriemen",
      fr: "fermeture scratch|à scratch|velcro|fermeture auto-agrippante|auto-agrippant|auto-agrippante",
      es: "velcro|cierre adherente|cierre de velcro",
    }),
    value("buckle", ["Buckle", "Schnalle", "Boucle", "Hebilla"], {
      en: "buckle|buckles|buckle closure|buckle fastening|buckled|buckle strap",
      de: "schnalle|schnallen|schnallenverschluss|dornschließe",
      fr: "à boucle|fermeture à boucle|boucle ardillon",
      es: "hebilla|hebillas|cierre de hebilla|con hebilla",
    }),
    value("zip", ["Zip", "Reißverschluss", "Zip", "Cremallera"], {
      en: "zip closure|zip fastening|zipper closure|zip-up|zip up|zipped|full zip|full-zip|half zip|half-zip|quarter zip|front zip|zip front|zip-through|zip through|zipper|zippered",
      de: "reißverschluss|mit reißverschluss|reißverschlüssen|zip",
      fr: "zip|zippé|zippée|fermeture éclair|fermeture zippée",
      es: "cremallera|con cremallera|cierre de cremallera|cierre de cremallera frontal",
    }),
    value("drawstring", ["Drawstring", "Kordelzug", "Cordon de serrage", "Cordón ajustable"], {
      en: "drawstring|drawstrings|draw string|draw-string|drawcord|draw cord|tie-up waist",
      de: "kordelzug|tunnelzug|zugband",
      fr: "cordon de serrage|cordon coulissant|lien de serrage",
      es: "cordón ajustable|jareta|cordón de ajuste",
    }),
  ],
};

export const HEEL_TYPE: VocabularyAttribute = {
  key: "heelType",
  displayName: names("Heel type", "Absatzform", "Type de talon", "Tipo de tacón"),
  fieldNames: ["heel type", "heel", "heel style", "heel shape", "absatz", "absatzform", "talon", "type de talon", "tacón", "tipo de tacón"],
  values: [
    value("stiletto", ["Stiletto", "Stiletto", "Talon aiguille", "Tacón de aguja"], {
      en: "stiletto|stilettos|stiletto heel|stiletto heels|pencil heel|pencil heels|spike heel",
      de: "stiletto|stilettos|stilettoabsatz|pfennigabsatz|bleistiftabsatz",
      fr: "talon aiguille|talons aiguilles|stiletto|stilettos",
      es: "tacón de aguja|tacones de aguja|stiletto|stilettos",
    }),
    value("block-heel", ["Block heel", "Blockabsatz", "Talon bloc", "Tacón ancho"], {
      en: "block heel|block heels|block-heel|block-heeled|block heeled|chunky heel|chunky heels",
      de: "blockabsatz|block-absatz|blockabsätze|breiter absatz",
      fr: "talon bloc|talons blocs|talon carré|talon large|talons larges",
      es: "tacón ancho|tacones anchos|tacón cuadrado|tacón de bloque",
    }),
    value("wedge", ["Wedge", "Keilabsatz", "Talon compensé", "Cuña"], {
      en: "wedge|wedges|wedge heel|wedge heels|wedge-heeled",
      de: "keilabsatz|keilabsätze|wedges|wedge",
      fr: "talon compensé|talons compensés|compensée|compensées|compensé|compensés",
      es: "cuña|cuñas|de cuña|tacón de cuña|tacones de cuña",
    }),
    value("platform", ["Platform", "Plateau", "Plateforme", "Plataforma"], {
      en: "platform|platforms|platform heel|platform heels|flatform|flatforms|platform sole",
      de: "plateau|plateausohle|plateauabsatz|plateauschuhe",
      fr: "plateforme|plateformes|semelle plateforme|semelle compensée plateforme",
      es: "plataforma|plataformas|suela de plataforma",
    }),
    value("kitten-heel", ["Kitten heel", "Kitten Heel", "Petit talon", "Tacón kitten"], {
      en: "kitten heel|kitten heels|kitten-heel",
      de: "kitten heel|kitten heels|kitten-heel",
      fr: "petit talon|petits talons|kitten heel",
      es: "tacón kitten|kitten heel",
    }),
  ],
};
