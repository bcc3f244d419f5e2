import { names, split, value, type VocabularyAttribute } from "./define.ts";

/*
 * Patterns and surface designs. A product may have several ("floral printed"), so the attribute is a list. Words
 * that are also used for things other than a fabric's look ("solid wood", "quality checked", "floral fragrance",
 * "check out") are blocked, and bare "check" is no synonym at all.
 */

export const PATTERN: VocabularyAttribute = {
  key: "pattern",
  displayName: names("Pattern", "Muster", "Motif", "Estampado"),
  fieldNames: ["pattern", "patterns", "print", "print type", "design", "muster", "motif", "motifs", "estampado"],
  blockers: split(
    "quality checks|solid wood|solid sheesham|solid brass|solid silver|solid gold|solid state|solid perfume|quality checked|floral fragrance|" +
      "floral notes|floral note|floral scent|floral fruity|floral woody|floral aroma|floral bouquet|floral musk|floral accord|" +
      "floral heart|textured finish|print media|printed circuit|print button|screen printer",
  ),
  values: [
    value("solid", ["Solid", "Unifarben", "Uni", "Liso"], {
      en: "solid|plain|solid colour|solid color",
      de: "unifarben|einfarbig|uni",
      fr: "uni|unie|unis|unies",
      es: "liso|lisa|lisos|lisas|color liso",
    }),
    value("printed", ["Printed", "Bedruckt", "Imprimé", "Estampado"], {
      en: "printed|print|prints|all over print|all-over print|digital print|screen print",
      de: "bedruckt|bedruckte|bedrucktes|bedruckter|print|aufdruck|allover-print",
      fr: "imprimé|imprimée|imprimés|imprimées|motif imprimé",
      es: "estampado|estampada|estampados|estampadas|print",
    }),
    value("graphic", ["Graphic", "Grafik", "Graphique", "Gráfico"], {
      en: "graphic|graphic print|graphic printed|typography|typography print|typographic|slogan|slogan print|text print",
      de: "grafik|grafikprint|grafikdruck|schriftzug|slogan",
      fr: "graphique|imprimé graphique|slogan|typographie",
      es: "gráfico|gráfica|estampado gráfico|eslogan|tipografía",
    }),
    value("striped", ["Striped", "Gestreift", "Rayé", "De rayas"], {
      en: "striped|stripes|stripe|pinstriped|pinstripe|pin striped|stripe print|striped print",
      de: "gestreift|gestreifte|gestreifter|gestreiftes|streifen|nadelstreifen",
      fr: "rayé|rayée|rayés|rayées|rayures|à rayures",
      es: "rayas|de rayas|a rayas|rayado|rayada",
    }),
    value("checked", ["Checked", "Kariert", "À carreaux", "De cuadros"], {
      en: "checked|checks|checkered|chequered|check print|check pattern|plaid|tartan|gingham|houndstooth|buffalo check",
      de: "kariert|karierte|karierter|kariertes|karo|karomuster|vichy|hahnentritt",
      fr: "à carreaux|carreaux|écossais|écossaise|vichy|pied-de-poule",
      es: "cuadros|de cuadros|a cuadros|vichy|pata de gallo|escocés|escocesa",
    }),
    value("floral", ["Floral", "Geblümt", "Fleuri", "De flores"], {
      en: "floral|florals|flower|flowers|flowery|floral print|floral printed|flower print",
      de: "geblümt|geblümte|geblümter|geblümtes|blumen|blumenmuster|blumendruck|floral",
      fr: "fleuri|fleurie|fleuris|fleuries|à fleurs|fleurs|imprimé floral|floral",
      es: "flores|de flores|floral|florales|estampado floral",
    }),
    value("polka-dot", ["Polka dot", "Gepunktet", "À pois", "De lunares"], {
      en: "polka dot|polka dots|polka-dot|polka dotted|dots|dotted|spotted|polka",
      de: "gepunktet|gepunktete|gepunkteter|gepunktetes|punkte|tupfen|pünktchen",
      fr: "à pois|pois",
      es: "lunares|de lunares|topos",
    }),
    value("geometric", ["Geometric", "Geometrisch", "Géométrique", "Geométrico"], {
      en: "geometric|geometric print|geometrical",
      de: "geometrisch|geometrische|geometrischer|geometrisches|geometrisches muster",
      fr: "géométrique|géométriques",
      es: "geométrico|geométrica|geométricos|geométricas",
    }),
    value("abstract", ["Abstract", "Abstrakt", "Abstrait", "Abstracto"], {
      en: "abstract|abstract print",
      de: "abstrakt|abstrakte|abstrakter|abstraktes",
      fr: "abstrait|abstraite|abstraits|abstraites",
      es: "abstracto|abstracta|abstractos|abstractas",
    }),
    value("animal", ["Animal print", "Animal-Print", "Imprimé animal", "Estampado animal"], {
      en: "animal print|animal printed|leopard|leopard print|zebra print|snake print|snakeskin|tiger print|cheetah print",
      de: "animal-print|animalprint|leopardenmuster|leoprint|schlangenmuster|zebramuster",
      fr: "imprimé animal|imprimé léopard|léopard|imprimé zèbre|imprimé serpent",
      es: "estampado animal|animal print|leopardo|estampado de leopardo|cebra|serpiente",
    }),
    value("camouflage", ["Camouflage", "Camouflage", "Camouflage", "Camuflaje"], {
      en: "camouflage|camo|camo print|camouflage print",
      de: "camouflage|tarnmuster|camo",
      fr: "camouflage|camo",
      es: "camuflaje|camo",
    }),
    value("colourblocked", ["Colourblock", "Colour-Blocking", "Color block", "Color block"], {
      en: "colourblocked|colorblocked|colour blocked|color blocked|colourblock|colorblock|colour block|color block|colour-block|color-block",
      de: "colour-blocking|color-blocking|colorblock|blockstreifen",
      fr: "color block|colorblock|colour block",
      es: "color block|bloques de color|colorblock",
    }),
    value("embroidered", ["Embroidered", "Bestickt", "Brodé", "Bordado"], {
      en: "embroidered|embroidery|chikankari|schiffli",
      de: "bestickt|bestickte|bestickter|besticktes|stickerei",
      fr: "brodé|brodée|brodés|brodées|broderie|broderies",
      es: "bordado|bordada|bordados|bordadas",
    }),
    value("tie-dye", ["Tie-dye", "Batik", "Tie and dye", "Tie-dye"], {
      en: "tie-dye|tie dye|tie and dye|tie & dye|tie-dyed|tie dyed|batik",
      de: "batik|batikmuster|tie-dye",
      fr: "tie and dye|tie-and-dye|tie dye|tie-dye",
      es: "tie dye|tie-dye|teñido anudado",
    }),
    value("paisley", ["Paisley", "Paisley", "Cachemire", "Cachemir"], {
      en: "paisley|paisley print",
      de: "paisley|paisleymuster|paisley-muster",
      fr: "motif cachemire|motif paisley|paisley",
      es: "estampado cachemir|estampado paisley|paisley",
    }),
    value("ethnic-motif", ["Ethnic motif", "Ethno-Muster", "Motif ethnique", "Estampado étnico"], {
      en: "ethnic motif|ethnic motifs|ethnic print|ethnic printed|bandhani|bandhej|ikat|ajrak|kalamkari|leheriya|block print|block printed|warli",
      de: "ethno-muster|ethnomuster|ethno-print|ikat",
      fr: "motif ethnique|motifs ethniques|imprimé ethnique|ikat",
      es: "estampado étnico|étnico estampado|ikat",
    }),
    value("self-design", ["Self-design", "Ton in Ton", "Ton sur ton", "Tono sobre tono"], {
      en: "self design|self-design|self designed|self-designed|tone on tone",
      de: "ton in ton|ton-in-ton",
      fr: "ton sur ton",
      es: "tono sobre tono|tono a tono",
    }),
    value("jacquard", ["Jacquard", "Jacquard", "Jacquard", "Jacquard"], {
      en: "jacquard|woven design|brocade|dobby",
      de: "jacquard|jacquardmuster|brokat",
      fr: "jacquard|brocart",
      es: "jacquard|brocado",
    }),
    value("textured", ["Textured", "Strukturiert", "Texturé", "Texturizado"], {
      en: "textured|waffle knit|cable knit",
      de: "strukturiert|strukturierte|strukturierter|strukturiertes|zopfmuster",
      fr: "texturé|texturée|texturés|texturées|torsadé",
      es: "texturizado|texturizada|texturizados|texturizadas|de ochos",
    }),
  ],
};
