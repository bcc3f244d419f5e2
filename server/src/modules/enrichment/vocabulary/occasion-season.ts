import { names, split, value, type VocabularyAttribute } from "./define.ts";

/*
 * When a product is worn: the occasion and the season. The occasion keys include the usages the demo catalog
 * states (casual, smart casual, formal, party, ethnic, sports, travel, home) and look-rules.ts reads. Words for
 * seasons and occasions are common in marketing copy ("beat the summer heat", "a mechanical spring", "a training
 * bra" is no sports bra), so the text stage reads them from catalog fields and product names only. Bare "sport",
 * "athletic", "fitness" and the names of games are no synonyms: in names they are product lines and fan wear
 * ("Arrow Sport" shirts, "Puma Fitness" handbags, a "Cricket T-shirt") far more often than sportswear.
 */

export const OCCASION: VocabularyAttribute = {
  key: "occasion",
  displayName: names("Occasion", "Anlass", "Occasion", "Ocasión"),
  fieldNames: ["occasion", "occasions", "usage", "use", "ideal occasion", "anlass", "anlässe", "ocasión", "ocasion", "uso"],
  blockers: split(
    "training bra|training bras|ethnic motif|ethnic motifs|ethnic print|ethnic printed|evening primrose|party supplies|party popper|party poppers",
  ),
  values: [
    value("casual", ["Casual", "Freizeit", "Décontracté", "Informal"], {
      en: "casual|casuals|casual wear|casualwear|everyday|everyday wear|daily wear|leisure",
      de: "freizeit|freizeitmode|lässig|lässige|casual|alltag",
      fr: "décontracté|décontractée|casual|quotidien|tous les jours",
      es: "informal|casual|de diario|para el día a día",
    }),
    value("smart-casual", ["Smart casual", "Smart Casual", "Chic décontracté", "Smart casual"], {
      en: "smart casual|smart-casual|semi formal|semi-formal|semiformal|business casual",
      de: "smart casual|business casual|smart-casual",
      fr: "chic décontracté|smart casual|semi-formel",
      es: "smart casual|semiformal|semi formal|arreglado informal",
    }),
    value("formal", ["Formal", "Business", "Habillé", "Formal"], {
      en: "formal|formals|formal wear|formalwear",
      de: "formell|businessmode|business-look",
      fr: "habillé|habillée|formel|formelle|tenue de soirée habillée",
      es: "formal|de vestir|etiqueta|de etiqueta",
    }),
    value("work", ["Work", "Büro", "Travail", "Trabajo"], {
      en: "workwear|work wear|office|office wear|officewear|for work",
      de: "büro|büromode|arbeit|office",
      fr: "bureau|travail|tenue de bureau",
      es: "trabajo|oficina|ropa de oficina",
    }),
    value("party", ["Party", "Party", "Soirée", "Fiesta"], {
      en: "party|partywear|party wear|evening|evening wear|cocktail|clubwear|club wear|night out",
      de: "party|partymode|abendmode|abend|cocktail",
      fr: "soirée|soirées|fête|cocktail|tenue de soirée",
      es: "fiesta|de fiesta|cóctel|coctel",
    }),
    value("wedding", ["Wedding", "Hochzeit", "Mariage", "Boda"], {
      en: "wedding|weddings|bridal|bride|bridesmaid|engagement|wedding wear",
      de: "hochzeit|brautmode|braut|brautjungfer|standesamt",
      fr: "mariage|mariée|demoiselle d'honneur|cérémonie",
      es: "boda|bodas|nupcial|novia|dama de honor|ceremonia",
    }),
    value("festive", ["Festive", "Festlich", "Fêtes", "Festivo"], {
      en: "festive|festive wear|festival|festivals|diwali|eid|christmas|navratri|holiday season",
      de: "festlich|festliche|festlicher|festliches|weihnachten|weihnachtlich",
      fr: "festif|festive|fêtes de fin d'année|noël",
      es: "festivo|festiva|navidad|navideño|navideña",
    }),
    value("ethnic", ["Ethnic", "Ethno", "Ethnique", "Étnico"], {
      en: "ethnic|ethnic wear|ethnicwear|traditional|traditional wear|indian wear|indo western|indo-western|fusion wear",
      de: "ethno|traditionell|tracht",
      fr: "ethnique|traditionnel|traditionnelle",
      es: "étnico|étnica|tradicional",
    }),
    value("sports", ["Sports", "Sport", "Sport", "Deporte"], {
      en: "sports|sportswear|sports wear|activewear|active wear|gym|gym wear|training|workout|running|jogging|yoga|cycling|hiking|trekking|swimming",
      de: "sportbekleidung|laufen|joggen|wandern|für den sport",
      fr: "sportif|sportive|pour le sport|entraînement|randonnée",
      es: "deporte|deportes|deportivo|deportiva|entrenamiento|senderismo",
    }),
    value("beach", ["Beach", "Strand", "Plage", "Playa"], {
      en: "beach|beachwear|beach wear|resort wear|resortwear|poolside|swim",
      de: "strand|strandmode|bademode",
      fr: "plage|balnéaire",
      es: "playa|ropa de baño",
    }),
    value("travel", ["Travel", "Reise", "Voyage", "Viaje"], {
      en: "travel|travelling|traveling|travel wear|trip|vacation",
      de: "reise|reisen|urlaub",
      fr: "voyage|voyages|vacances",
      es: "viaje|viajes|vacaciones",
    }),
    value("lounge", ["Lounge", "Zuhause", "Détente", "Estar en casa"], {
      en: "lounge|loungewear|lounge wear|homewear|home wear|sleepwear|sleep wear|nightwear|night wear|at home",
      de: "loungewear|homewear|zuhause|nachtwäsche|schlafmode",
      fr: "détente|d'intérieur|tenue d'intérieur|homewear|vêtements de nuit|tenue de nuit",
      es: "estar en casa|estar por casa|ropa de casa|ropa de dormir|homewear",
    }),
  ],
};

export const SEASON: VocabularyAttribute = {
  key: "season",
  displayName: names("Season", "Saison", "Saison", "Temporada"),
  fieldNames: ["season", "seasons", "saison", "temporada"],
  values: [
    value("spring", ["Spring", "Frühling", "Printemps", "Primavera"], {
      en: "spring|springtime|spring wear",
      de: "frühling|frühjahr|frühlings|frühjahrs",
      fr: "printemps|printanier|printanière",
      es: "primavera|primaveral",
    }),
    value("summer", ["Summer", "Sommer", "Été", "Verano"], {
      en: "summer|summers|summery|summer wear|summertime",
      de: "sommer|sommerlich|sommerliche|sommerlicher|sommerliches",
      fr: "d'été|estival|estivale|estivaux|estivales",
      es: "verano|veraniego|veraniega",
    }),
    value("autumn", ["Autumn", "Herbst", "Automne", "Otoño"], {
      en: "autumn|fall|autumnal|autumn wear|fall wear",
      de: "herbst|herbstlich|herbstliche|herbstlicher",
      fr: "automne|automnal|automnale|d'automne",
      es: "otoño|otoñal",
    }),
    value("winter", ["Winter", "Winter", "Hiver", "Invierno"], {
      en: "winter|winters|wintry|winter wear|winterwear",
      de: "winter|winterlich|winterliche|winterlicher|winterliches",
      fr: "hiver|hivernal|hivernale|d'hiver",
      es: "invierno|invernal",
    }),
  ],
};
