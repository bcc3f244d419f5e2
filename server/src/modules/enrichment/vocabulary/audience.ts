import { names, split, value, type VocabularyAttribute } from "./define.ts";

/*
 * Who a product is for: gender and age group, the values of the service's own Product fields (Women, Men, Unisex;
 * Adults, Teens, Kids). Catalogs that say "Boys" or "Girls" mean a gender and an age group at once, so those words
 * are synonyms in both attributes. Bare "man" and "woman" are no synonyms: they are mostly the names of characters
 * printed on kids' T-shirts (Spider-Man, Wonder Woman); "baby doll" is a nightdress and "baby pink" a colour.
 */

export const GENDER: VocabularyAttribute = {
  key: "gender",
  displayName: names("Gender", "Geschlecht", "Genre", "Género"),
  fieldNames: ["gender", "ideal for", "suitable for", "department", "geschlecht", "genre", "género", "genero"],
  blockers: split(
    "male connector|female connector|male to female|female to male|male pin|female pin|male plug|female plug|boy leg|boyleg|boy shorts|boy short|boyshorts",
  ),
  values: [
    value("women", ["Women", "Damen", "Femme", "Mujer"], {
      en: "women|womens|women's|ladies|ladies'|lady|female|females|girls|girl|girl's|girls'|for her",
      de: "damen|frauen|mädchen|damenmode",
      fr: "femme|femmes|fille|filles|pour elle",
      es: "mujer|mujeres|dama|damas|niña|niñas",
    }),
    value("men", ["Men", "Herren", "Homme", "Hombre"], {
      en: "men|mens|men's|gents|gentlemen|male|males|boys|boy|boy's|boys'|for him",
      de: "herren|männer|jungen|junge|herrenmode",
      fr: "homme|hommes|garçon|garçons|pour lui",
      es: "hombre|hombres|caballero|caballeros|niño|niños",
    }),
    value("unisex", ["Unisex", "Unisex", "Mixte", "Unisex"], {
      en: "unisex|men and women|women and men|men & women|women & men|for him and her|his and hers|gender neutral|boys and girls|girls and boys|boys & girls",
      de: "unisex|damen und herren|herren und damen|damen & herren|jungen und mädchen",
      fr: "unisexe|homme et femme|femme et homme|hommes et femmes|femmes et hommes|garçons et filles",
      es: "unisex|hombre y mujer|mujer y hombre|hombres y mujeres|niños y niñas",
    }),
  ],
};

export const AGE_GROUP: VocabularyAttribute = {
  key: "ageGroup",
  displayName: names("Age group", "Altersgruppe", "Tranche d'âge", "Grupo de edad"),
  fieldNames: ["age group", "agegroup", "age", "age range", "altersgruppe", "alter", "âge", "tranche d'âge", "edad", "grupo de edad"],
  blockers: split(
    "baby doll|baby dolls|babydoll|babydolls|baby pink|baby blue|baby oil|baby powder|kid leather|boy leg|boyleg|boy shorts|boy short|boyshorts",
  ),
  values: [
    value("adults", ["Adults", "Erwachsene", "Adultes", "Adultos"], {
      en: "adult|adults|grown-up|grown-ups",
      de: "erwachsene|erwachsenen",
      fr: "adulte|adultes",
      es: "adulto|adultos|adulta|adultas",
    }),
    value("teens", ["Teens", "Jugendliche", "Adolescents", "Adolescentes"], {
      en: "teen|teens|teenager|teenagers|teenage|tween|tweens",
      de: "teenager|jugendliche|jugendlichen|teens",
      fr: "ado|ados|adolescent|adolescents|adolescente",
      es: "adolescente|adolescentes",
    }),
    value("kids", ["Kids", "Kinder", "Enfants", "Niños"], {
      en: "kid|kids|kid's|kids'|child|children|children's|childrens|boys|boy|girls|girl|baby|babies|infant|infants|toddler|toddlers|newborn|newborns",
      de: "kinder|kind|kindermode|jungen|junge|mädchen|baby|babys|kleinkind|kleinkinder",
      fr: "enfant|enfants|garçon|garçons|fille|filles|bébé|bébés|junior",
      es: "niño|niños|niña|niñas|infantil|bebé|bebés|junior",
    }),
  ],
};
