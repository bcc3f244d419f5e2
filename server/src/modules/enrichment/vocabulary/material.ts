import { names, split, value, type VocabularyAttribute } from "./define.ts";

/*
 * What a product is made of: fibres, leathers and the metals of watches and jewellery. A blend names several
 * ("cotton blend with elastane"), so the attribute is a list. The more specific phrase wins ("faux leather" is not
 * leather, "art silk" is viscose); a part that is not what the product is made of ("rubber sole") and phrases where
 * the word names something else ("bed linen" is a product, "acrylic paint" a medium, "piel seca" dry skin) are blocked.
 */

export const MATERIAL: VocabularyAttribute = {
  key: "material",
  displayName: names("Material", "Material", "Matière", "Material"),
  fieldNames: [
    "material",
    "materials",
    "fabric",
    "fabrics",
    "outer material",
    "upper material",
    "shell",
    "composition",
    "material composition",
    "stoff",
    "obermaterial",
    "matière",
    "matières",
    "tissu",
    "tejido",
    "composición",
  ],
  blockers: split(
    "rubber sole|rubber soles|rubber outsole|tpr sole|bed linen|table linen|bath linen|kitchen linen|canvas painting|canvas print|" +
      "canvas art|on canvas|acrylic paint|acrylic paints|acrylic colour|acrylic colours|acrylic nail|acrylic nails|acrylic sheet|" +
      "silk protein|silk proteins|silk touch|cotton pad|cotton pads|cotton buds|cotton swab|cotton swabs|cotton wool|leather care|" +
      "leather polish|leather cleaner|piel sensible|piel seca|piel grasa|piel mixta|piel normal|ours polaire|cercle polaire",
  ),
  values: [
    value("cotton", ["Cotton", "Baumwolle", "Coton", "Algodón"], {
      en: "cotton|pure cotton|100% cotton|cotton blend|organic cotton|combed cotton|khadi|supima cotton",
      de: "baumwolle|reine baumwolle|bio-baumwolle|baumwollmischung",
      fr: "coton|pur coton|coton bio|coton biologique",
      es: "algodón|algodón orgánico|100% algodón",
    }),
    value("linen", ["Linen", "Leinen", "Lin", "Lino"], {
      en: "linen|pure linen|linen blend",
      de: "leinen|leinenmischung",
      fr: "lin|pur lin",
      es: "lino",
    }),
    value("denim", ["Denim", "Denim", "Denim", "Denim"], {
      en: "denim|chambray",
      de: "denim|jeansstoff|chambray",
      fr: "denim|toile de jean|chambray",
      es: "denim|tela vaquera|mezclilla|chambray",
    }),
    value("polyester", ["Polyester", "Polyester", "Polyester", "Poliéster"], {
      en: "polyester|recycled polyester|polyster",
      de: "polyester",
      fr: "polyester",
      es: "poliéster",
    }),
    value("viscose", ["Viscose", "Viskose", "Viscose", "Viscosa"], {
      en: "viscose|rayon|viscose rayon|modal|lyocell|tencel|art silk",
      de: "viskose|modal|lyocell",
      fr: "viscose|rayonne|modal|lyocell",
      es: "viscosa|rayón|modal|lyocell",
    }),
    value("silk", ["Silk", "Seide", "Soie", "Seda"], {
      en: "silk|pure silk|silk blend|mulberry silk",
      de: "seide|reine seide|seidenmischung",
      fr: "soie|pure soie",
      es: "seda|pura seda",
    }),
    value("wool", ["Wool", "Wolle", "Laine", "Lana"], {
      en: "wool|woollen|woolen|wool blend|merino|merino wool|lambswool",
      de: "wolle|schurwolle|merinowolle|wollmischung",
      fr: "laine|laine mérinos|pure laine",
      es: "lana|lana merino",
    }),
    value("cashmere", ["Cashmere", "Kaschmir", "Cachemire", "Cachemir"], {
      en: "cashmere|pashmina",
      de: "kaschmir|cashmere",
      fr: "cachemire",
      es: "cachemir|cachemira",
    }),
    value("leather", ["Leather", "Leder", "Cuir", "Piel"], {
      en: "leather|genuine leather|real leather|full grain leather|top grain leather|nappa|nappa leather|patent leather",
      de: "leder|echtleder|glattleder|lackleder|nappaleder",
      fr: "cuir|cuir véritable|cuir verni|cuir pleine fleur",
      es: "cuero|de piel|en piel|piel auténtica|charol",
    }),
    value("faux-leather", ["Faux leather", "Kunstleder", "Similicuir", "Polipiel"], {
      en: "faux leather|pu|pu leather|synthetic leather|artificial leather|vegan leather|leatherette|imitation leather|pleather",
      de: "kunstleder|lederimitat|veganes leder",
      fr: "similicuir|simili cuir|cuir synthétique|cuir vegan|cuir végan",
      es: "polipiel|piel sintética|cuero sintético|cuero vegano|piel vegana",
    }),
    value("suede", ["Suede", "Wildleder", "Daim", "Ante"], {
      en: "suede|nubuck|faux suede|micro suede",
      de: "wildleder|veloursleder|nubukleder|nubuk",
      fr: "daim|nubuck|suédine|suédé|suédée",
      es: "de ante|piel de ante|serraje|nobuk",
    }),
    value("nylon", ["Nylon", "Nylon", "Nylon", "Nailon"], {
      en: "nylon|polyamide",
      de: "nylon|polyamid",
      fr: "nylon|polyamide",
      es: "nailon|nylon|poliamida",
    }),
    value("elastane", ["Elastane", "Elasthan", "Élasthanne", "Elastano"], {
      en: "elastane|spandex|lycra",
      de: "elasthan|elastan",
      fr: "élasthanne",
      es: "elastano",
    }),
    value("chiffon", ["Chiffon", "Chiffon", "Mousseline", "Gasa"], {
      en: "chiffon",
      de: "chiffon",
      fr: "mousseline|voile de soie",
      es: "gasa|chifón",
    }),
    value("georgette", ["Georgette", "Georgette", "Georgette", "Georgette"], {
      en: "georgette|gorgette|faux georgette",
      de: "georgette",
      fr: "georgette|crêpe georgette",
      es: "georgette|crepé georgette",
    }),
    value("crepe", ["Crepe", "Krepp", "Crêpe", "Crepé"], { en: "crepe|crêpe|crape", de: "krepp|crêpe", fr: "crêpe", es: "crepé|crep" }),
    value("satin", ["Satin", "Satin", "Satin", "Satén"], { en: "satin|sateen", de: "satin", fr: "satin", es: "satén" }),
    value("velvet", ["Velvet", "Samt", "Velours", "Terciopelo"], {
      en: "velvet|velour",
      de: "samt|samtig|velours",
      fr: "velours",
      es: "terciopelo|velour",
    }),
    value("corduroy", ["Corduroy", "Cord", "Velours côtelé", "Pana"], {
      en: "corduroy",
      de: "cord|kord|cordsamt",
      fr: "velours côtelé|velours cotelé",
      es: "pana",
    }),
    value("fleece", ["Fleece", "Fleece", "Polaire", "Forro polar"], {
      en: "fleece|polar fleece|sherpa",
      de: "fleece|sherpa",
      fr: "polaire|sherpa",
      es: "forro polar|tejido polar|sherpa",
    }),
    value("jute", ["Jute", "Jute", "Jute", "Yute"], {
      en: "jute|hessian|burlap",
      de: "jute|sackleinen",
      fr: "jute|toile de jute",
      es: "yute|arpillera",
    }),
    value("canvas", ["Canvas", "Canvas", "Toile", "Lona"], {
      en: "canvas",
      de: "canvas|segeltuch",
      fr: "toile|en toile",
      es: "lona|de lona",
    }),
    value("acrylic", ["Acrylic", "Acryl", "Acrylique", "Acrílico"], {
      en: "acrylic",
      de: "acryl|polyacryl",
      fr: "acrylique",
      es: "acrílico|acrílica",
    }),
    value("mesh", ["Mesh", "Mesh", "Résille", "Malla"], {
      en: "mesh|netted|air mesh",
      de: "mesh|netzstoff",
      fr: "résille|mesh|tulle",
      es: "malla|rejilla|tul",
    }),
    value("rubber", ["Rubber", "Gummi", "Caoutchouc", "Caucho"], {
      en: "rubber|natural rubber",
      de: "gummi|kautschuk",
      fr: "caoutchouc",
      es: "caucho",
    }),
    value("stainless-steel", ["Stainless steel", "Edelstahl", "Acier inoxydable", "Acero inoxidable"], {
      en: "stainless steel|stainless-steel|316l steel|surgical steel",
      de: "edelstahl|rostfreier stahl",
      fr: "acier inoxydable|acier inox|inox",
      es: "acero inoxidable|inox",
    }),
    value("brass", ["Brass", "Messing", "Laiton", "Latón"], { en: "brass", de: "messing", fr: "laiton", es: "latón" }),
    value("sterling-silver", ["Sterling silver", "Sterlingsilber", "Argent sterling", "Plata de ley"], {
      en: "sterling silver|925 silver|925 sterling silver|92.5 sterling silver|silver 925",
      de: "sterlingsilber|925er silber|silber 925",
      fr: "argent sterling|argent 925|argent massif",
      es: "plata de ley|plata 925|plata esterlina",
    }),
  ],
};
