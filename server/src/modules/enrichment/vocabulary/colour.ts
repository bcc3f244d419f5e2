import { names, split, value, type VocabularyAttribute } from "./define.ts";

/*
 * Colours: the names shoppers filter by, fine enough to tell navy from blue and mustard from yellow, coarse enough
 * that a facet stays short. Every shade a catalog writes is a synonym of one of them ("sky blue" is light blue,
 * "burgundy" maroon, "off white" cream). The hex is what the demo catalog's images are filled with where it has the
 * colour (demo-store/src/catalog/colors.ts), so image analysis names the demo's own colours back correctly.
 * Fruit, flower and drink words that are also colours (peach, lavender, wine, coffee, cream) appear in personal
 * care and home products too; the blockers below hold the phrases where they are not the product's colour.
 */

export const COLOUR: VocabularyAttribute = {
  key: "colour",
  displayName: names("Colour", "Farbe", "Couleur", "Color"),
  fieldNames: ["colour", "color", "colours", "colors", "colour name", "color name", "farbe", "couleur", "coloris"],
  blockers: split(
    "anti tan|de tan|detan|sun tan|suntan|tan removal|olive oil|face cream|night cream|day cream|hand cream|body cream|foot cream|" +
      "eye cream|cold cream|shaving cream|under eye cream|fairness cream|bb cream|cc cream|cream cleanser|whipped cream|" +
      "black friday|white board|white noise|blue tooth|rouge à lèvres|rouge a lèvres|pink floyd|green tea|orange blossom|lavender oil|" +
      "rose water|red carpet|black box|black head|black heads|white head|white heads|stainless steel|multi purpose|multi pocket|" +
      "multi pockets|multi functional|multi function|multi utility|multi layer|multi layered|multi strand|multi strap|multi compartment|" +
      "multi use|multi tool|multi dial|multi-dial",
  ),
  values: [
    value(
      "black",
      ["Black", "Schwarz", "Noir", "Negro"],
      { en: "black|jet black", de: "schwarz|schwarze|schwarzer|schwarzes", fr: "noir|noire|noirs|noires", es: "negro|negra|negros|negras" },
      "#111111",
    ),
    value(
      "white",
      ["White", "Weiß", "Blanc", "Blanco"],
      {
        en: "white|optic white|snow white|pure white",
        de: "weiß|weiße|weißer|weißes|weiss",
        fr: "blanc|blanche|blancs|blanches",
        es: "blanco|blanca|blancos|blancas",
      },
      "#fafafa",
    ),
    value(
      "cream",
      ["Cream", "Creme", "Crème", "Crema"],
      {
        en: "cream|off white|off-white|offwhite|ivory|ecru|cream coloured|cream colored",
        de: "creme|cremefarben|cremeweiß|elfenbein|ecru|wollweiß",
        fr: "crème|écru|écrue|ivoire|blanc cassé",
        es: "crema|marfil|crudo|blanco roto",
      },
      "#f3ead3",
    ),
    value(
      "beige",
      ["Beige", "Beige", "Beige", "Beige"],
      { en: "beige|taupe|sand beige|stone beige", de: "beige|sandfarben|taupe", fr: "beige|sable|taupe", es: "beige|beis|arena|topo" },
      "#d9c8a9",
    ),
    value(
      "nude",
      ["Nude", "Nude", "Nude", "Nude"],
      {
        en: "nude|skin tone|skin colour|skin color|skin coloured|skin colored|flesh",
        de: "nude|hautfarben",
        fr: "nude|couleur chair",
        es: "nude|color carne",
      },
      "#e3bc9a",
    ),
    value("khaki", ["Khaki", "Khaki", "Kaki", "Caqui"], { en: "khaki|khakhi", de: "khaki", fr: "kaki", es: "caqui|kaki" }, "#c3b091"),
    value(
      "tan",
      ["Tan", "Hellbraun", "Camel", "Camel"],
      { en: "tan|tan brown|camel|camel brown|cognac", de: "hellbraun|camel|cognac", fr: "camel|cognac|fauve", es: "camel|coñac" },
      "#c19a6b",
    ),
    value(
      "brown",
      ["Brown", "Braun", "Marron", "Marrón"],
      {
        en: "brown|coffee brown|chocolate brown|dark brown|mushroom brown|mocha brown",
        de: "braun|braune|brauner|braunes|dunkelbraun|schokobraun",
        fr: "marron|brun|brune|marron chocolat",
        es: "marrón|marron|café oscuro|marrón chocolate",
      },
      "#6b4226",
    ),
    value(
      "rust",
      ["Rust", "Rost", "Rouille", "Óxido"],
      {
        en: "rust|rust orange|rust red|rust brown|terracotta|burnt orange",
        de: "rostrot|rostbraun|rost|terrakotta",
        fr: "rouille|terracotta|brique",
        es: "óxido|teja|terracota",
      },
      "#b7410e",
    ),
    value(
      "orange",
      ["Orange", "Orange", "Orange", "Naranja"],
      { en: "orange|tangerine", de: "orange|orangefarben", fr: "orange|orangé|orangée", es: "naranja|anaranjado|anaranjada" },
      "#ef6c00",
    ),
    value(
      "peach",
      ["Peach", "Pfirsich", "Pêche", "Melocotón"],
      {
        en: "peach|peach coloured|peach colored",
        de: "pfirsich|apricot|aprikose",
        fr: "pêche|abricot",
        es: "melocotón|durazno|albaricoque",
      },
      "#ffcba4",
    ),
    value(
      "coral",
      ["Coral", "Koralle", "Corail", "Coral"],
      {
        en: "coral|coral pink|coral red|coral orange|salmon pink",
        de: "koralle|korallenrot|lachsfarben",
        fr: "corail|rose saumon",
        es: "coral|rosa salmón",
      },
      "#ff7f50",
    ),
    value(
      "yellow",
      ["Yellow", "Gelb", "Jaune", "Amarillo"],
      {
        en: "yellow|lemon yellow|canary yellow|bright yellow",
        de: "gelb|gelbe|gelber|gelbes|zitronengelb",
        fr: "jaune|jaunes",
        es: "amarillo|amarilla|amarillos|amarillas",
      },
      "#fdd835",
    ),
    value(
      "mustard",
      ["Mustard", "Senfgelb", "Moutarde", "Mostaza"],
      { en: "mustard|mustard yellow|ochre|ocher", de: "senfgelb|senf|ocker", fr: "moutarde|ocre", es: "mostaza|ocre" },
      "#d4a017",
    ),
    value(
      "gold",
      ["Gold", "Gold", "Doré", "Dorado"],
      {
        en: "gold|golden|gold toned|gold tone|gold-toned",
        de: "gold|goldfarben|golden",
        fr: "doré|dorée|dorés|dorées",
        es: "dorado|dorada|dorados|doradas|oro",
      },
      "#c9a227",
    ),
    value(
      "olive",
      ["Olive", "Oliv", "Olive", "Oliva"],
      {
        en: "olive|olive green|army green|military green",
        de: "oliv|olivgrün|khakigrün",
        fr: "olive|vert olive|kaki foncé",
        es: "oliva|verde oliva|verde militar",
      },
      "#6b6b2a",
    ),
    value(
      "lime",
      ["Lime", "Limettengrün", "Vert anis", "Verde lima"],
      {
        en: "lime green|lime-green|neon green|fluorescent green|parrot green|light green|pista green|pistachio green|chartreuse",
        de: "limettengrün|limonengrün|neongrün|hellgrün|giftgrün",
        fr: "vert anis|vert citron|vert pomme|vert fluo|vert clair",
        es: "verde lima|verde fluor|verde flúor|verde pistacho|verde claro",
      },
      "#7cc242",
    ),
    value(
      "green",
      ["Green", "Grün", "Vert", "Verde"],
      {
        en: "green|dark green|bottle green|sea green|mint green|emerald|emerald green|forest green|jade green",
        de: "grün|grüne|grüner|grünes|dunkelgrün|mintgrün|smaragdgrün|tannengrün",
        fr: "vert|verte|verts|vertes|vert foncé|vert menthe|vert émeraude|vert sapin",
        es: "verde|verdes|verde oscuro|verde menta|verde esmeralda|verde botella",
      },
      "#2e7d32",
    ),
    value(
      "teal",
      ["Teal", "Petrol", "Bleu canard", "Verde azulado"],
      {
        en: "teal|teal blue|teal green|peacock blue|petrol blue",
        de: "petrol|petrolblau|petrolgrün",
        fr: "bleu canard|bleu pétrole|sarcelle",
        es: "verde azulado|azul petróleo",
      },
      "#00808a",
    ),
    value(
      "turquoise",
      ["Turquoise", "Türkis", "Turquoise", "Turquesa"],
      {
        en: "turquoise|turquoise blue|aqua|aqua blue|aquamarine|sea blue|cyan",
        de: "türkis|türkisblau|aqua",
        fr: "turquoise|bleu turquoise|aqua",
        es: "turquesa|aguamarina",
      },
      "#30c0c8",
    ),
    value(
      "light-blue",
      ["Light blue", "Hellblau", "Bleu clair", "Azul claro"],
      {
        en: "light blue|sky blue|powder blue|pastel blue|ice blue|baby blue",
        de: "hellblau|himmelblau|eisblau|babyblau",
        fr: "bleu clair|bleu ciel|bleu pâle|bleu layette",
        es: "azul claro|celeste|azul cielo|azul bebé",
      },
      "#8ec5e8",
    ),
    value(
      "blue",
      ["Blue", "Blau", "Bleu", "Azul"],
      {
        en: "blue|royal blue|cobalt|cobalt blue|indigo|denim blue|electric blue|mid blue",
        de: "blau|blaue|blauer|blaues|royalblau|kobaltblau|indigo|jeansblau",
        fr: "bleu|bleue|bleus|bleues|bleu roi|indigo",
        es: "azul|azules|azul eléctrico|añil|índigo|azulón",
      },
      "#1f5fbf",
    ),
    value(
      "navy",
      ["Navy", "Marineblau", "Bleu marine", "Azul marino"],
      {
        en: "navy|navy blue|dark blue|midnight blue|ink blue",
        de: "marineblau|marine|dunkelblau|navy",
        fr: "bleu marine|marine|bleu nuit",
        es: "azul marino|marino|azul oscuro",
      },
      "#1b2a4a",
    ),
    value(
      "lavender",
      ["Lavender", "Lavendel", "Lavande", "Lavanda"],
      {
        en: "lavender|lilac|mauve|lavender purple",
        de: "lavendel|flieder|lila|mauve",
        fr: "lavande|lilas|mauve|parme",
        es: "lavanda|lila|malva",
      },
      "#b4a7d6",
    ),
    value(
      "purple",
      ["Purple", "Violett", "Violet", "Morado"],
      {
        en: "purple|violet|plum|aubergine|dark purple",
        de: "violett|lila-violett|pflaume|aubergine|purpur",
        fr: "violet|violette|prune|aubergine|pourpre",
        es: "morado|morada|violeta|púrpura|berenjena|ciruela",
      },
      "#6a1b9a",
    ),
    value(
      "magenta",
      ["Magenta", "Magenta", "Fuchsia", "Fucsia"],
      {
        en: "magenta|fuchsia|fuschia|hot pink|rani pink|neon pink",
        de: "magenta|fuchsia",
        fr: "magenta|fuchsia|rose fuchsia|rose vif",
        es: "magenta|fucsia|rosa fucsia",
      },
      "#c2185b",
    ),
    value(
      "pink",
      ["Pink", "Rosa", "Rose", "Rosa"],
      {
        en: "pink|light pink|dusty pink|blush pink|rose pink|dusty rose|pastel pink|old rose|onion pink|baby pink",
        de: "rosa|rosé|altrosa|hellrosa",
        fr: "rose|rose pâle|rose poudré|vieux rose",
        es: "rosa|rosado|rosada|rosa palo|rosa claro",
      },
      "#f06292",
    ),
    value(
      "red",
      ["Red", "Rot", "Rouge", "Rojo"],
      {
        en: "red|bright red|cherry red|scarlet|crimson|tomato red",
        de: "rot|rote|roter|rotes|kirschrot|knallrot",
        fr: "rouge|rouges|rouge cerise|écarlate|carmin",
        es: "rojo|roja|rojos|rojas|escarlata|carmín",
      },
      "#c62828",
    ),
    value(
      "maroon",
      ["Maroon", "Bordeaux", "Bordeaux", "Granate"],
      {
        en: "maroon|burgundy|wine red|wine coloured|wine colored|oxblood|dark red|bordeaux",
        de: "bordeaux|bordeauxrot|weinrot|dunkelrot|burgunderrot",
        fr: "bordeaux|lie de vin|rouge foncé|grenat",
        es: "granate|burdeos|vino|rojo oscuro|borgoña",
      },
      "#6d1a2a",
    ),
    value(
      "grey",
      ["Grey", "Grau", "Gris", "Gris"],
      {
        en: "grey|gray|light grey|light gray|grey melange|gray melange|melange|heather grey|ash grey|slate grey|steel grey|steel",
        de: "grau|graue|grauer|graues|hellgrau|grau meliert|grau-meliert|steingrau",
        fr: "gris|grise|grises|gris clair|gris chiné",
        es: "gris|grises|gris claro|gris jaspeado",
      },
      "#8a8a8a",
    ),
    value(
      "charcoal",
      ["Charcoal", "Anthrazit", "Anthracite", "Antracita"],
      {
        en: "charcoal|charcoal grey|charcoal gray|dark grey|dark gray|anthracite|gunmetal|gunmetal grey",
        de: "anthrazit|dunkelgrau",
        fr: "anthracite|gris foncé|gris anthracite",
        es: "antracita|gris oscuro|gris marengo",
      },
      "#36454f",
    ),
    value(
      "silver",
      ["Silver", "Silber", "Argenté", "Plateado"],
      {
        en: "silver|silver toned|silver-toned|silver tone|metallic|platinum",
        de: "silber|silberfarben|silbern|platin",
        fr: "argenté|argentée|argentés|argentées|argent|platine",
        es: "plateado|plateada|plateados|plateadas|plata|platino",
      },
      "#c0c0c0",
    ),
    value(
      "bronze",
      ["Bronze", "Bronze", "Bronze", "Bronce"],
      {
        en: "bronze|copper|antique gold|bronze toned|copper toned",
        de: "bronze|kupfer|kupferfarben",
        fr: "bronze|cuivre|cuivré|cuivrée",
        es: "bronce|cobre|cobrizo|cobriza",
      },
      "#a9713a",
    ),
    value(
      "rose-gold",
      ["Rose gold", "Roségold", "Or rose", "Oro rosa"],
      {
        en: "rose gold|rose-gold|rose gold toned|rose gold-toned|rosegold",
        de: "roségold|rosegold|rosé-gold",
        fr: "or rose|doré rose",
        es: "oro rosa|oro rosado",
      },
      "#b76e79",
    ),
    value("multi", ["Multicolour", "Mehrfarbig", "Multicolore", "Multicolor"], {
      en: "multi|multicolour|multicolor|multicoloured|multicolored|multi colour|multi color|multi-coloured|multi-colored|assorted|rainbow",
      de: "mehrfarbig|bunt|mehrfarbige|regenbogen",
      fr: "multicolore|multicolores|arc-en-ciel",
      es: "multicolor|multicolores|arcoíris|arco iris",
    }),
  ],
};
