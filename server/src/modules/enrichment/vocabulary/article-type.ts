import { names, split, value, type VocabularyAttribute } from "./define.ts";

/*
 * Product types: the ones the demo catalog has most (productTypes() over its category leaves: T-shirts, shoes,
 * shirts, watches, kurtas, tops, handbags...), with the words catalogs and shoppers use for them in the four
 * locales, singular and plural. Display names are singular ("T-shirt"), as content templates put them in a
 * sentence. A type the list lacks is still extracted from a catalog's category, keyed by its own word (see
 * displayNameOf in vocabulary.ts).
 *
 * Matching runs over text in every locale, so a word that means a type in one language and something else in
 * another needs care: French "robe" (dress) is an English bath robe, "haut" (top) also means "high", Spanish
 * "collar" (necklace) is an English collar, German "Rock" (skirt) is music. Such words are left out, kept only in
 * longer phrases, or blocked where the other meaning is common ("col haut", "slip-on", "watch strap").
 */

export const ARTICLE_TYPE: VocabularyAttribute = {
  key: "articleType",
  displayName: names("Product type", "Produktart", "Type de produit", "Tipo de producto"),
  fieldNames: [
    "type",
    "product type",
    "producttype",
    "article type",
    "articletype",
    "category",
    "produktart",
    "artikelart",
    "type de produit",
    "tipo de producto",
    "tipo",
  ],
  blockers: split(
    "slip on|slip ons|slip-on|slip-ons|pull on|pull up|pull-on|col haut|haut de gamme|en haut|short sleeve|" +
      "short sleeves|short sleeved|short-sleeved|watch strap|watch straps|watch band|watch bands|watch box|watch winder|watch case|" +
      "key ring|key rings|keyring|ring light|ring binder|d ring|o ring|key chain|chain strap|chain link|tie dye|tie and dye|tie & dye|" +
      "tie dyed|tie up|tie-up|tie knot|cap sleeve|cap sleeves|toe cap|bottle cap|top coat|base coat|dress material|dress materials|" +
      "seat belt|belt loops|belt loop|pendant lamp|pendant light|boot cut|bootcut|sunglass case|shoe rack|shoe polish|" +
      "shoe laces|shoe bag|sock liner|bag charm|top handle|top handles|top zip|home fragrance|home fragrances|fragrance oil|fragrance oils",
  ),
  values: [
    // Tops
    value("t-shirt", ["T-shirt", "T-Shirt", "T-shirt", "Camiseta"], {
      en: "t-shirt|t-shirts|tshirt|tshirts|t shirt|t shirts|tee|tees|tee shirt",
      de: "t-shirt|t-shirts",
      fr: "t-shirt|t-shirts|tee-shirt|tee-shirts",
      es: "camiseta|camisetas",
    }),
    value("shirt", ["Shirt", "Hemd", "Chemise", "Camisa"], {
      en: "shirt|shirts|dress shirt|button-down shirt|oxford shirt",
      de: "hemd|hemden|oberhemd|businesshemd",
      fr: "chemise|chemises",
      es: "camisa|camisas",
    }),
    value("top", ["Top", "Top", "Haut", "Top"], {
      en: "top|tops|tank top|tank tops|tube top|crop top|crop tops|camisole top",
      de: "top|tops|oberteil|oberteile|tanktop",
      fr: "haut|hauts|débardeur|débardeurs|caraco",
      es: "top|tops|camiseta de tirantes",
    }),
    value("blouse", ["Blouse", "Bluse", "Chemisier", "Blusa"], {
      en: "blouse|blouses|saree blouse",
      de: "bluse|blusen",
      fr: "chemisier|chemisiers|blouse|blouses",
      es: "blusa|blusas",
    }),
    value("tunic", ["Tunic", "Tunika", "Tunique", "Túnica"], {
      en: "tunic|tunics",
      de: "tunika|tuniken",
      fr: "tunique|tuniques",
      es: "túnica|túnicas",
    }),
    value("kurta", ["Kurta", "Kurta", "Kurta", "Kurta"], {
      en: "kurta|kurtas|anarkali|anarkali kurta|straight kurta",
      de: "kurta|kurtas",
      fr: "kurta|kurtas",
      es: "kurta|kurtas",
    }),
    value("kurti", ["Kurti", "Kurti", "Kurti", "Kurti"], {
      en: "kurti|kurtis",
      de: "kurti|kurtis",
      fr: "kurti|kurtis",
      es: "kurti|kurtis",
    }),
    value("kurta-set", ["Kurta set", "Kurta-Set", "Ensemble kurta", "Conjunto de kurta"], {
      en: "kurta set|kurta sets|kurta with palazzos|kurta with palazzo|kurta with trousers|kurta with churidar|kurta with salwar|kurta with pyjamas|kurta with leggings|kurta with skirt|kurta with sharara|kurta with dhoti pants|kurta pyjama|kurta-pyjama|kurta churidar|salwar suit|salwar suits|salwar kameez|churidar suit",
      de: "kurta-set|kurta set",
      fr: "ensemble kurta|ensembles kurta",
      es: "conjunto de kurta|conjuntos de kurta",
    }),
    value("sweatshirt", ["Sweatshirt", "Sweatshirt", "Sweat-shirt", "Sudadera"], {
      en: "sweatshirt|sweatshirts|sweat shirt|hoodie|hoodies|hoody|hooded sweatshirt|pullover hoodie",
      de: "sweatshirt|sweatshirts|hoodie|hoodies|kapuzenpullover|kapuzenpulli|sweatjacke",
      fr: "sweat-shirt|sweat-shirts|sweat à capuche|sweats à capuche",
      es: "sudadera|sudaderas|sudadera con capucha",
    }),
    value("sweater", ["Sweater", "Pullover", "Pull", "Jersey"], {
      en: "sweater|sweaters|pullover|pullovers|jumper|jumpers|knitwear|knit sweater",
      de: "pullover|pulli|pullis|strickpullover|strickpulli",
      fr: "pull|pulls|pull-over|pull-overs|tricot",
      es: "suéter|suéteres|jerséis|pulóver|jersey de punto",
    }),
    value("cardigan", ["Cardigan", "Strickjacke", "Cardigan", "Cárdigan"], {
      en: "cardigan|cardigans|shrug|shrugs",
      de: "strickjacke|strickjacken|cardigan|cardigans",
      fr: "cardigan|cardigans|gilet en maille",
      es: "cárdigan|cárdigans|chaqueta de punto|rebeca|rebecas",
    }),
    value("jacket", ["Jacket", "Jacke", "Veste", "Chaqueta"], {
      en: "jacket|jackets|bomber jacket|denim jacket|puffer jacket|windcheater|windcheaters|windbreaker|rain jacket|nehru jacket|biker jacket|shacket",
      de: "jacke|jacken|übergangsjacke|lederjacke|jeansjacke|daunenjacke|regenjacke|windjacke",
      fr: "veste|vestes|blouson|blousons|doudoune|doudounes|coupe-vent",
      es: "chaqueta|chaquetas|cazadora|cazadoras|chamarra|plumífero",
    }),
    value("blazer", ["Blazer", "Blazer", "Blazer", "Americana"], {
      en: "blazer|blazers|suit jacket|sport coat|sports coat",
      de: "blazer|sakko|sakkos",
      fr: "blazer|blazers|veston|vestons|veste de costume",
      es: "americana|americanas|blazer|blazers",
    }),
    value("coat", ["Coat", "Mantel", "Manteau", "Abrigo"], {
      en: "coat|coats|overcoat|overcoats|trench coat|trench|raincoat|raincoats|pea coat|parka|parkas",
      de: "mantel|mäntel|trenchcoat|parka|wintermantel|regenmantel",
      fr: "manteau|manteaux|trench|parka|imperméable",
      es: "abrigo|abrigos|gabardina|parka|chubasquero",
    }),
    value("waistcoat", ["Waistcoat", "Weste", "Gilet de costume", "Chaleco"], {
      en: "waistcoat|waistcoats|gilet|vest coat",
      de: "weste|westen|anzugweste",
      fr: "gilet de costume|gilet sans manches",
      es: "chaleco|chalecos",
    }),
    value("suit", ["Suit", "Anzug", "Costume", "Traje"], {
      en: "suit|suits|two-piece suit|three-piece suit|tuxedo|tuxedos",
      de: "anzug|anzüge|smoking",
      fr: "costume homme|costume deux pièces|costume trois pièces|smoking",
      es: "traje|trajes|esmoquin",
    }),
    value("tracksuit", ["Tracksuit", "Trainingsanzug", "Survêtement", "Chándal"], {
      en: "tracksuit|tracksuits|track suit|track suits|jogging suit",
      de: "trainingsanzug|trainingsanzüge|jogginganzug",
      fr: "survêtement|survêtements|ensemble de survêtement",
      es: "chándal|chándales|chandal|conjunto deportivo",
    }),
    value("dress", ["Dress", "Kleid", "Robe", "Vestido"], {
      en: "dress|dresses|gown|gowns|frock|frocks|maxi dress|shirt dress|slip dress",
      de: "kleid|kleider|abendkleid|sommerkleid|minikleid|maxikleid",
      fr: "robe|robes|robe longue|robe courte",
      es: "vestido|vestidos",
    }),
    value("jumpsuit", ["Jumpsuit", "Jumpsuit", "Combinaison", "Mono"], {
      en: "jumpsuit|jumpsuits|playsuit|playsuits|romper|rompers|dungarees|dungaree|overalls|boiler suit",
      de: "jumpsuit|jumpsuits|overall|overalls|einteiler|latzhose",
      fr: "combinaison|combinaisons|combi-short|combishort|salopette",
      es: "mono largo|mono corto|peto|enterizo",
    }),
    value("saree", ["Saree", "Sari", "Sari", "Sari"], {
      en: "saree|sarees|sari|saris",
      de: "sari|saris",
      fr: "sari|saris",
      es: "sari|saris",
    }),
    value("lehenga", ["Lehenga", "Lehenga", "Lehenga", "Lehenga"], {
      en: "lehenga|lehengas|lehenga choli|lehenga cholis|ghagra|ghagra choli|chaniya choli",
      de: "lehenga",
      fr: "lehenga",
      es: "lehenga",
    }),
    value("dupatta", ["Dupatta", "Dupatta", "Dupatta", "Dupatta"], {
      en: "dupatta|dupattas|chunni|odhani",
      de: "dupatta",
      fr: "dupatta",
      es: "dupatta",
    }),
    // Bottoms
    value("jeans", ["Jeans", "Jeans", "Jean", "Vaqueros"], {
      en: "jeans|jean|denims|skinny jeans|bootcut jeans|jeggings|jegging",
      de: "jeans|jeanshose|jeanshosen",
      fr: "jean|jeans",
      es: "vaqueros|vaquero|tejanos|tejano|jeans",
    }),
    value("trousers", ["Trousers", "Hose", "Pantalon", "Pantalón"], {
      en: "trousers|trouser|pants|pant|chinos|chino|chino pants|cargo pants|cargos|cargo trousers|slacks|formal trousers",
      de: "hose|hosen|chino|chinos|chinohose|stoffhose|cargohose|anzughose",
      fr: "pantalon|pantalons|chino|chinos|pantalon cargo",
      es: "pantalón|pantalones|chino|chinos|pantalón cargo",
    }),
    value("track-pants", ["Track pants", "Jogginghose", "Pantalon de jogging", "Pantalón de chándal"], {
      en: "track pants|track pant|trackpants|trackpant|joggers|jogger|jogger pants|sweatpants|sweat pants|track bottoms|trackies",
      de: "jogginghose|jogginghosen|trainingshose|trainingshosen|sweathose|sweatpants",
      fr: "pantalon de jogging|pantalon de survêtement|bas de survêtement|jogging|joggings",
      es: "pantalón de chándal|pantalones de chándal|jogger|joggers|pantalón deportivo",
    }),
    value("shorts", ["Shorts", "Shorts", "Short", "Pantalón corto"], {
      en: "shorts|bermuda|bermudas|bermuda shorts|hot pants|cycling shorts",
      de: "shorts|kurze hose|kurze hosen|bermudas|bermudashorts",
      fr: "short|shorts|bermuda|bermudas",
      es: "pantalón corto|pantalones cortos|short|shorts|bermuda|bermudas",
    }),
    value("skirt", ["Skirt", "Rock", "Jupe", "Falda"], {
      en: "skirt|skirts|miniskirt|maxi skirt|midi skirt|pencil skirt|skort|skorts",
      de: "röcke|minirock|maxirock|midirock|bleistiftrock|faltenrock|jeansrock",
      fr: "jupe|jupes|minijupe|jupe-culotte",
      es: "falda|faldas|minifalda|falda pantalón",
    }),
    value("leggings", ["Leggings", "Leggings", "Legging", "Leggings"], {
      en: "leggings|legging|churidar leggings|ankle leggings",
      de: "leggings|leggins",
      fr: "legging|leggings|caleçon long",
      es: "leggings|mallas|malla deportiva",
    }),
    value("capris", ["Capris", "Caprihose", "Pantacourt", "Pantalón pirata"], {
      en: "capris|capri|capri pants|three-fourths|3/4 pants|3/4th pants|3/4 length pants|3/4th length pants|3/4 trousers",
      de: "caprihose|caprihosen|capri-hose|caprijeans",
      fr: "pantacourt|pantacourts|corsaire|corsaires|capri",
      es: "pantalón pirata|pantalones piratas|pirata|piratas|capri",
    }),
    value("palazzos", ["Palazzo pants", "Palazzohose", "Pantalon palazzo", "Pantalón palazzo"], {
      en: "palazzos|palazzo|palazzo pants|palazzo trousers|sharara|shararas|garara",
      de: "palazzohose|palazzohosen|palazzo",
      fr: "pantalon palazzo|palazzo|palazzos",
      es: "pantalón palazzo|palazzo|palazzos",
    }),
    value("salwar", ["Salwar", "Salwar", "Salwar", "Salwar"], {
      en: "salwar|salwars|churidar|churidars|patiala|patialas|dhoti pants|harem pants|harem pant",
      de: "salwar|haremshose|haremshosen",
      fr: "salwar|sarouel|sarouels",
      es: "salwar|pantalón harén|pantalones harén",
    }),
    // Underwear, nightwear, swimwear
    value("bra", ["Bra", "BH", "Soutien-gorge", "Sujetador"], {
      en: "bra|bras|bralette|bralettes|sports bra|sports bras|t-shirt bra|push-up bra|brassiere",
      de: "bh|bhs|büstenhalter|bralette|sport-bh",
      fr: "soutien-gorge|soutiens-gorge|brassière|brassières|bralette",
      es: "sujetador|sujetadores|sostén|sostenes|bralette|top deportivo",
    }),
    value("briefs", ["Briefs", "Slip", "Slip", "Braga"], {
      en: "briefs|brief|panty|panties|knickers|thong|thongs|hipster|hipsters|bikini briefs",
      de: "slip|slips|unterhose|unterhosen|höschen|tanga",
      fr: "slip|slips|culotte|tanga",
      es: "braga|bragas|calzoncillo|calzoncillos|slip|slips|tanga",
    }),
    value("boxers", ["Boxers", "Boxershorts", "Boxer", "Bóxer"], {
      en: "boxers|boxer|boxer shorts|boxer briefs|trunks|trunk|boxer brief",
      de: "boxershorts|boxershort|boxer|retroshorts",
      fr: "boxer|boxers|caleçon|caleçons|shorty",
      es: "bóxer|bóxers|calzoncillo bóxer|boxer",
    }),
    value("vest", ["Vest", "Unterhemd", "Maillot de corps", "Camiseta interior"], {
      en: "vest|vests|undershirt|undershirts|singlet|singlets|innerwear vest|innerwear vests|sando|camisole|camisoles|cami|camis",
      de: "unterhemd|unterhemden|feinripp-unterhemd",
      fr: "maillot de corps|maillots de corps",
      es: "camiseta interior|camisetas interiores",
    }),
    value("nightdress", ["Nightdress", "Nachthemd", "Chemise de nuit", "Camisón"], {
      en: "nightdress|nightdresses|night dress|nightie|nighties|nighty|nightgown|nightgowns|night gown|baby doll|baby dolls|babydoll|babydolls",
      de: "nachthemd|nachthemden|negligé|babydoll",
      fr: "chemise de nuit|chemises de nuit|nuisette|nuisettes|babydoll",
      es: "camisón|camisones|picardías|babydoll",
    }),
    value("nightwear-set", ["Pyjama set", "Schlafanzug", "Pyjama", "Pijama"], {
      en: "night suit|night suits|nightsuit|nightsuits|pyjama set|pyjama sets|pajama set|pajama sets|pyjamas|pajamas|pyjama|pajama|pjs|sleep set",
      de: "schlafanzug|schlafanzüge|pyjama|pyjamas",
      fr: "pyjama|pyjamas|ensemble pyjama",
      es: "pijama|pijamas|conjunto de pijama",
    }),
    value("lounge-pants", ["Lounge pants", "Loungehose", "Pantalon d'intérieur", "Pantalón de estar por casa"], {
      en: "lounge pants|lounge pant|pyjama pants|pajama pants|pyjama bottoms|pajama bottoms|lounge trousers|lounge shorts|sleep shorts",
      de: "loungehose|pyjamahose|schlafhose",
      fr: "pantalon d'intérieur|pantalon de pyjama|bas de pyjama",
      es: "pantalón de estar por casa|pantalón de pijama",
    }),
    value("bathrobe", ["Bathrobe", "Bademantel", "Peignoir", "Albornoz"], {
      en: "bathrobe|bathrobes|bath robe|bath robes|dressing gown|satin robe|silk robe|kimono robe|night robe|lounge robe",
      de: "bademantel|bademäntel|morgenmantel",
      fr: "peignoir|peignoirs|robe de chambre|robes de chambre",
      es: "albornoz|albornoces|bata|batas",
    }),
    value("swimwear", ["Swimwear", "Bademode", "Maillot de bain", "Bañador"], {
      en: "swimwear|swimsuit|swimsuits|swim suit|bathing suit|swimming costume|bikini|bikinis|swim trunks|swim shorts|monokini|tankini",
      de: "badeanzug|badeanzüge|bikini|bikinis|badehose|badehosen|badeshorts",
      fr: "maillot de bain|maillots de bain|bikini|bikinis|short de bain",
      es: "bañador|bañadores|bikini|bikinis|traje de baño|trajes de baño",
    }),
    value("tights", ["Tights", "Strumpfhose", "Collant", "Medias"], {
      en: "tights|stockings|pantyhose|hosiery",
      de: "strumpfhose|strumpfhosen|strümpfe",
      fr: "collant|collants",
      es: "medias|pantis",
    }),
    value("socks", ["Socks", "Socken", "Chaussettes", "Calcetines"], {
      en: "socks|sock|ankle socks|no-show socks|trainer socks",
      de: "socken|socke|sneakersocken",
      fr: "chaussettes|chaussette|socquettes",
      es: "calcetines|calcetín|calcetin|tobilleros",
    }),
    // Footwear
    value("shoes", ["Shoes", "Schuhe", "Chaussures", "Zapatos"], {
      en: "shoes|shoe|footwear",
      de: "schuhe|schuh|halbschuhe",
      fr: "chaussures|chaussure|souliers",
      es: "zapatos|zapato|calzado",
    }),
    value("casual-shoes", ["Casual shoes", "Freizeitschuhe", "Chaussures décontractées", "Zapatos casual"], {
      en: "casual shoes|casual shoe|canvas shoes|boat shoes|deck shoes|espadrilles",
      de: "freizeitschuhe|freizeitschuh|bootsschuhe|espadrilles",
      fr: "chaussures décontractées|chaussures casual|chaussures bateau|espadrilles",
      es: "zapatos casual|zapatos informales|náuticos|alpargatas",
    }),
    value("sports-shoes", ["Sports shoes", "Sportschuhe", "Chaussures de sport", "Zapatillas deportivas"], {
      en: "sports shoes|sport shoes|sports shoe|running shoes|running shoe|training shoes|walking shoes|football shoes|football boots|athletic shoes|tennis shoes|basketball shoes|trail shoes|trainers|trainer",
      de: "sportschuhe|sportschuh|laufschuhe|laufschuh|turnschuhe|fußballschuhe|hallenschuhe",
      fr: "chaussures de sport|chaussure de sport|chaussures de running|chaussures de course|chaussures de foot",
      es: "zapatillas deportivas|zapatillas de deporte|zapatillas de running|zapatillas de correr|botas de fútbol",
    }),
    value("formal-shoes", ["Formal shoes", "Business-Schuhe", "Chaussures de ville", "Zapatos de vestir"], {
      en: "formal shoes|formal shoe|dress shoes|oxfords|oxford shoes|brogues|brogue|derby shoes|derbies|monk shoes|monk straps",
      de: "business-schuhe|businessschuhe|anzugschuhe|schnürhalbschuhe|budapester",
      fr: "chaussures de ville|chaussures habillées|richelieus|richelieu|derbies",
      es: "zapatos de vestir|zapatos formales|zapatos oxford|blucher",
    }),
    value("sneakers", ["Sneakers", "Sneaker", "Baskets", "Zapatillas"], {
      en: "sneakers|sneaker|high tops|high-tops|low tops",
      de: "sneaker|sneakers",
      fr: "baskets|sneakers",
      es: "zapatillas|zapatilla|deportivas",
    }),
    value("loafers", ["Loafers", "Loafer", "Mocassins", "Mocasines"], {
      en: "loafers|loafer|moccasins|moccasin|driving shoes|penny loafers",
      de: "loafer|loafers|mokassins|mokassin|college-schuhe",
      fr: "mocassins|mocassin|loafers",
      es: "mocasines|mocasín",
    }),
    value("heels", ["Heels", "Pumps", "Escarpins", "Tacones"], {
      en: "heels|high heels|heeled sandals|court shoes|pumps|stilettos|heeled shoes|heeled boots",
      de: "pumps|high heels|absatzschuhe|stöckelschuhe|sandaletten",
      fr: "escarpins|escarpin|chaussures à talons|talons hauts|talon haut|sandales à talons",
      es: "tacones|zapatos de tacón|salones|sandalias de tacón",
    }),
    value("flats", ["Flats", "Ballerinas", "Ballerines", "Bailarinas"], {
      en: "flats|ballerinas|ballet flats|ballerina flats|ballerina|mules|juttis|jutti|mojari|mojaris",
      de: "ballerinas|ballerina|flache schuhe|pantoletten",
      fr: "ballerines|ballerine|chaussures plates|mules",
      es: "bailarinas|bailarina|manoletinas|zapatos planos",
    }),
    value("sandals", ["Sandals", "Sandalen", "Sandales", "Sandalias"], {
      en: "sandals|sandal|sports sandals|floaters|gladiators|gladiator sandals",
      de: "sandalen|sandale|trekkingsandalen",
      fr: "sandales|sandale|nu-pieds",
      es: "sandalias|sandalia",
    }),
    value("flip-flops", ["Flip-flops", "Zehentrenner", "Tongs", "Chanclas"], {
      en: "flip-flops|flip flops|flip-flop|flip flop|flipflops|thong sandals|sliders|slides|pool slides",
      de: "zehentrenner|flip-flops|badelatschen|badeschuhe",
      fr: "tongs|tong|claquettes|claquette",
      es: "chanclas|chancla|chanclas de piscina",
    }),
    value("slippers", ["Slippers", "Hausschuhe", "Chaussons", "Zapatillas de casa"], {
      en: "slippers|slipper|house slippers|bedroom slippers|home slippers",
      de: "hausschuhe|hausschuh|pantoffeln",
      fr: "chaussons|chausson|pantoufles|pantoufle",
      es: "zapatillas de casa|pantuflas|pantufla",
    }),
    value("boots", ["Boots", "Stiefel", "Bottes", "Botas"], {
      en: "boots|boot|ankle boots|chelsea boots|knee-high boots|combat boots|gumboots|wellingtons|booties",
      de: "stiefel|stiefeletten|boots|chelsea-boots|gummistiefel",
      fr: "bottes|botte|bottines|bottine|boots",
      es: "botas|bota|botines|botín",
    }),
    // Accessories
    value("watch", ["Watch", "Uhr", "Montre", "Reloj"], {
      en: "watch|watches|wrist watch|wristwatch|wristwatches|smartwatch|smart watch|chronograph watch|analog watch|digital watch",
      de: "uhr|uhren|armbanduhr|armbanduhren|smartwatch",
      fr: "montre|montres|montre connectée",
      es: "reloj|relojes|reloj inteligente",
    }),
    value("sunglasses", ["Sunglasses", "Sonnenbrille", "Lunettes de soleil", "Gafas de sol"], {
      en: "sunglasses|sunglass|sun glasses|aviators|wayfarers|shades for men|shades for women",
      de: "sonnenbrille|sonnenbrillen",
      fr: "lunettes de soleil|lunette de soleil",
      es: "gafas de sol|lentes de sol|anteojos de sol",
    }),
    value("bag", ["Bag", "Tasche", "Sac", "Bolso"], {
      en: "bag|bags|tote|totes|tote bag|tote bags|shopper bag",
      de: "tasche|taschen|shopper|tragetasche",
      fr: "sac|sacs|cabas|tote bag",
      es: "bolso|bolsos|bolsa|bolsas|tote",
    }),
    value("handbag", ["Handbag", "Handtasche", "Sac à main", "Bolso de mano"], {
      en: "handbag|handbags|hand bag|hand bags|shoulder bag|shoulder bags|satchel|satchels|hobo bag|hobo bags|bucket bag|purse",
      de: "handtasche|handtaschen|schultertasche|schultertaschen|beuteltasche",
      fr: "sac à main|sacs à main|sac porté épaule|sac seau",
      es: "bolso de mano|bolsos de mano|bolso de hombro|bolso bandolera grande",
    }),
    value("backpack", ["Backpack", "Rucksack", "Sac à dos", "Mochila"], {
      en: "backpack|backpacks|rucksack|rucksacks|school bag|school bags|daypack|laptop backpack",
      de: "rucksack|rucksäcke|schulrucksack|laptoprucksack",
      fr: "sac à dos|sacs à dos",
      es: "mochila|mochilas",
    }),
    value("clutch", ["Clutch", "Clutch", "Pochette", "Cartera de mano"], {
      en: "clutch|clutches|clutch bag|clutch bags|evening bag|potli|potli bag",
      de: "clutch|clutches|abendtasche|abendtaschen",
      fr: "pochette|pochettes|minaudière",
      es: "cartera de mano|carteras de mano|clutch|bolso de fiesta",
    }),
    value("sling-bag", ["Sling bag", "Umhängetasche", "Sac bandoulière", "Bandolera"], {
      en: "sling bag|sling bags|sling|crossbody|crossbody bag|cross-body bag|cross body bag|messenger bag|messenger bags|waist bag|waist pouch|belt bag|fanny pack|bum bag",
      de: "umhängetasche|umhängetaschen|crossbody-tasche|gürteltasche|bauchtasche",
      fr: "sac bandoulière|sacs bandoulière|sac besace|besace|banane|sac banane",
      es: "bandolera|bandoleras|riñonera|riñoneras|bolso bandolera",
    }),
    value("travel-bag", ["Travel bag", "Reisetasche", "Sac de voyage", "Bolsa de viaje"], {
      en: "duffel bag|duffle bag|duffel bags|duffle bags|duffel|duffle|travel bag|gym bag|weekender|holdall|trolley bag|trolley|suitcase|suitcases|luggage|cabin bag",
      de: "reisetasche|reisetaschen|sporttasche|koffer|trolley|weekender",
      fr: "sac de voyage|sacs de voyage|sac de sport|valise|valises|bagage cabine",
      es: "bolsa de viaje|bolsa de deporte|maleta|maletas|trolley",
    }),
    value("laptop-bag", ["Laptop bag", "Laptoptasche", "Sacoche pour ordinateur", "Maletín para portátil"], {
      en: "laptop bag|laptop bags|laptop sleeve|laptop case|briefcase|briefcases|office bag",
      de: "laptoptasche|laptoptaschen|notebooktasche|aktentasche",
      fr: "sacoche pour ordinateur|sacoche d'ordinateur|housse d'ordinateur|porte-documents",
      es: "maletín para portátil|maletín|funda para portátil",
    }),
    value("wallet", ["Wallet", "Geldbörse", "Portefeuille", "Cartera"], {
      en: "wallet|wallets|card holder|card holders|cardholder|money clip|coin purse",
      de: "geldbörse|geldbörsen|portemonnaie|portmonee|geldbeutel|kartenetui",
      fr: "portefeuille|portefeuilles|porte-monnaie|porte-cartes",
      es: "cartera|carteras|billetera|billeteras|monedero|tarjetero",
    }),
    value("belt", ["Belt", "Gürtel", "Ceinture", "Cinturón"], {
      en: "belt|belts|leather belt|reversible belt",
      de: "gürtel|ledergürtel",
      fr: "ceinture|ceintures",
      es: "cinturón|cinturones|cinto",
    }),
    value("cap", ["Cap", "Cap", "Casquette", "Gorra"], {
      en: "cap|caps|baseball cap|baseball caps|snapback|trucker cap",
      de: "cap|caps|basecap|baseballcap|schirmmütze|kappe",
      fr: "casquette|casquettes",
      es: "gorra|gorras",
    }),
    value("hat", ["Hat", "Hut", "Chapeau", "Sombrero"], {
      en: "hat|hats|fedora|bucket hat|sun hat|panama hat|beanie|beanies",
      de: "hut|hüte|fischerhut|strohhut|mütze|mützen|beanie",
      fr: "chapeau|chapeaux|chapeau bob|bonnet|bonnets",
      es: "sombrero|sombreros|gorro|gorros",
    }),
    value("scarf", ["Scarf", "Schal", "Écharpe", "Bufanda"], {
      en: "scarf|scarves|scarfs|muffler|mufflers|bandana|bandanas|neck warmer",
      de: "schal|schals|halstuch|halstücher|loop-schal",
      fr: "écharpe|écharpes|foulard|foulards|cache-cou",
      es: "bufanda|bufandas|pañuelo|pañuelos|fular",
    }),
    value("shawl", ["Shawl", "Stola", "Châle", "Chal"], {
      en: "shawl|shawls|stole|stoles|wrap shawl",
      de: "stola|stolen|umschlagtuch|schultertuch",
      fr: "châle|châles|étole|étoles",
      es: "chal|chales|estola|estolas|mantón",
    }),
    value("tie", ["Tie", "Krawatte", "Cravate", "Corbata"], {
      en: "tie|ties|necktie|neckties|bow tie|bow ties|bowtie",
      de: "krawatte|krawatten|fliege|schlips",
      fr: "cravate|cravates|nœud papillon",
      es: "corbata|corbatas|pajarita",
    }),
    value("gloves", ["Gloves", "Handschuhe", "Gants", "Guantes"], {
      en: "gloves|glove|mittens|mitts",
      de: "handschuhe|handschuh|fäustlinge",
      fr: "gants|gant|moufles",
      es: "guantes|guante|manoplas",
    }),
    // Jewellery
    value("earrings", ["Earrings", "Ohrringe", "Boucles d'oreilles", "Pendientes"], {
      en: "earrings|earring|ear rings|ear ring|jhumka|jhumkas|jhumki|jhumkis|ear cuffs|ear studs|stud earrings|hoops|hoop earrings|drop earrings|danglers",
      de: "ohrringe|ohrring|ohrstecker|ohrhänger|creolen",
      fr: "boucles d'oreilles|boucle d'oreille|boucles d'oreille|créoles|puces d'oreilles",
      es: "pendientes|aretes|zarcillos|aros",
    }),
    value("necklace", ["Necklace", "Halskette", "Collier", "Collar"], {
      en: "necklace|necklaces|choker|chokers|chain|chains|neck chain|mangalsutra|mangalsutras|necklace set",
      de: "halskette|halsketten|kette|ketten|collier|choker",
      fr: "collier|colliers|chaîne|chaînes|sautoir|ras-de-cou",
      es: "collares|gargantilla|gargantillas|cadena|cadenas",
    }),
    value("pendant", ["Pendant", "Anhänger", "Pendentif", "Colgante"], {
      en: "pendant|pendants|locket|lockets|pendant necklace",
      de: "kettenanhänger|medaillon|medaillons",
      fr: "pendentif|pendentifs|médaillon|médaillons",
      es: "colgante|colgantes|medallón|dije",
    }),
    value("ring", ["Ring", "Ring", "Bague", "Anillo"], {
      en: "ring|rings|finger ring|finger rings|band ring|engagement ring|toe ring|toe rings",
      de: "ring|ringe|fingerring|verlobungsring",
      fr: "bague|bagues|anneau",
      es: "anillo|anillos|sortija|sortijas",
    }),
    value("bracelet", ["Bracelet", "Armband", "Bracelet", "Pulsera"], {
      en: "bracelet|bracelets|charm bracelet|anklet|anklets",
      de: "armband|armbänder|armkettchen|fußkettchen",
      fr: "bracelet|bracelets|chevillère",
      es: "pulsera|pulseras|tobillera de cadena",
    }),
    value("bangle", ["Bangle", "Armreif", "Jonc", "Brazalete"], {
      en: "bangle|bangles|kada|kadas|cuff bracelet|kangan",
      de: "armreif|armreifen|armspange",
      fr: "jonc|joncs|bracelet jonc|bracelet rigide|manchette",
      es: "brazalete|brazaletes|pulsera rígida",
    }),
    value("cufflinks", ["Cufflinks", "Manschettenknöpfe", "Boutons de manchette", "Gemelos"], {
      en: "cufflinks|cufflink|cuff links|cuff link",
      de: "manschettenknöpfe|manschettenknopf",
      fr: "boutons de manchette|bouton de manchette",
      es: "gemelos|gemelos de camisa",
    }),
    // Beauty
    value("perfume", ["Perfume", "Parfüm", "Parfum", "Perfume"], {
      en: "perfume|perfumes|eau de parfum|eau de toilette|edp|edt|cologne|body mist|fragrance mist|attar|fragrance",
      de: "parfüm|parfum|parfums|duft|düfte|eau de cologne",
      fr: "parfum|parfums|eau de cologne|brume parfumée",
      es: "perfume|perfumes|colonia|agua de colonia|fragancia",
    }),
    value("deodorant", ["Deodorant", "Deodorant", "Déodorant", "Desodorante"], {
      en: "deodorant|deodorants|deo|deos|antiperspirant|body spray|roll-on|roll on",
      de: "deodorant|deo|deospray|deoroller|antitranspirant",
      fr: "déodorant|déodorants|déo|anti-transpirant",
      es: "desodorante|desodorantes|antitranspirante",
    }),
    value("lipstick", ["Lipstick", "Lippenstift", "Rouge à lèvres", "Pintalabios"], {
      en: "lipstick|lipsticks|lip colour|lip color|liquid lipstick|matte lipstick|lip crayon",
      de: "lippenstift|lippenstifte",
      fr: "rouge à lèvres|rouges à lèvres|rouge a lèvres",
      es: "pintalabios|barra de labios|barras de labios|labial|labiales",
    }),
    value("lip-gloss", ["Lip gloss", "Lipgloss", "Gloss", "Brillo de labios"], {
      en: "lip gloss|lip glosses|lipgloss|lip shine",
      de: "lipgloss|lip gloss",
      fr: "gloss|gloss à lèvres|brillant à lèvres",
      es: "brillo de labios|gloss|brillo labial",
    }),
    value("nail-polish", ["Nail polish", "Nagellack", "Vernis à ongles", "Esmalte de uñas"], {
      en: "nail polish|nail polishes|nail paint|nail paints|nail lacquer|nail enamel|nail colour|nail color",
      de: "nagellack|nagellacke",
      fr: "vernis à ongles|vernis",
      es: "esmalte de uñas|esmaltes de uñas|pintaúñas|laca de uñas",
    }),
    value("eyeshadow", ["Eyeshadow", "Lidschatten", "Fard à paupières", "Sombra de ojos"], {
      en: "eyeshadow|eyeshadows|eye shadow|eye shadows|eyeshadow palette",
      de: "lidschatten|lidschattenpalette",
      fr: "fard à paupières|fards à paupières|ombre à paupières|ombres à paupières",
      es: "sombra de ojos|sombras de ojos|paleta de sombras",
    }),
    value("eyeliner", ["Eyeliner", "Eyeliner", "Eye-liner", "Delineador"], {
      en: "eyeliner|eyeliners|eye liner|kajal|kajals|kohl|kohl pencil|eye pencil",
      de: "eyeliner|kajal|kajalstift|augenstift",
      fr: "eye-liner|eyeliner|khôl|crayon yeux|crayon pour les yeux",
      es: "delineador|delineadores|eyeliner|kohl|lápiz de ojos",
    }),
    // Home
    value("curtains", ["Curtains", "Vorhänge", "Rideaux", "Cortinas"], {
      en: "curtains|curtain|drapes|window curtain|door curtain",
      de: "vorhänge|vorhang|gardinen|gardine",
      fr: "rideaux|rideau|voilage|voilages",
      es: "cortinas|cortina|visillo|visillos",
    }),
  ],
};
