import { Type, type TObject, type TProperties } from "@sinclair/typebox";
import { EXPERIMENT_EVENT_FIELDS, type EventType } from "@storefront-search/contract";

/*
 * The data fields of each analytics event type, as the spec lists them. Fields that identify what the event
 * is about (the clicked product, the order) are required; the rest is context and optional. Fields the spec
 * does not list are dropped on ingest rather than rejected: a browser cannot resend a refused beacon, and a
 * newer widget must not lose events on an older server. The types, their required fields and which take the
 * shopper's locale are the contract's (EVENT_REQUIRED_FIELDS, LOCALE_EVENT_TYPES); tracking.test.ts holds these
 * schemas to them.
 */

const str = (max = 1000) => Type.String({ maxLength: max });
const productId = () => Type.String({ minLength: 1, maxLength: 256 });
const nonNegative = () => Type.Number({ minimum: 0, maximum: 1e9 });
const position = () => Type.Integer({ minimum: 0, maximum: 10_000 });

const FacetSelection = Type.Object({ key: str(256), value: str(1000) });
const PurchasedProduct = Type.Object({
  id: productId(),
  price: Type.Optional(Type.Number({ minimum: 0, maximum: 1e12 })),
  qty: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6 })),
});
const SelectedProduct = Type.Object({
  productId: productId(),
  position: Type.Optional(position()),
  internalCategory: Type.Optional(str(500)),
});

const locale = { region: Type.Optional(str(64)), language: Type.Optional(str(64)), currency: Type.Optional(str(16)) };
const listing = {
  query: Type.Optional(str()),
  productIds: Type.Optional(Type.Array(productId(), { maxItems: 1000 })),
  facets: Type.Optional(Type.Array(FacetSelection, { maxItems: 200 })),
  pageSize: Type.Optional(nonNegative()),
  sortBy: Type.Optional(str(64)),
  ...locale,
};
const pageChange = { ...listing, page: Type.Optional(nonNegative()) };
const ctl = {
  ...listing,
  baseProductId: Type.Optional(productId()),
  relatedProducts: Type.Optional(Type.Array(productId(), { maxItems: 1000 })),
  totalProducts: Type.Optional(nonNegative()),
};
const order = {
  orderId: Type.String({ minLength: 1, maxLength: 256 }),
  products: Type.Array(PurchasedProduct, { minItems: 1, maxItems: 1000 }),
};
const pages = { pageTo: nonNegative(), pageFrom: nonNegative() };

/**
 * Any event may say which experiment's answer it is about and which variant the shopper saw (the answer's
 * `experiment`), and a click on an interleaved list which ranking placed the product: the results count the
 * event for that variant instead of the shopper's assignment (docs/experiments.md).
 */
const experiment = {
  experimentId: Type.Optional(Type.String({ pattern: EXPERIMENT_EVENT_FIELDS.experimentId.source })),
  variant: Type.Optional(Type.String({ minLength: 1, maxLength: EXPERIMENT_EVENT_FIELDS.variantMaxLength })),
  interleavedFrom: Type.Optional(Type.Union([Type.Literal("A"), Type.Literal("B")])),
};

const data = (props: TProperties): TObject => Type.Object({ ...props, ...experiment });

export const EVENT_DATA = {
  SiteView: data({ location: Type.Optional(str(4096)), referrer: Type.Optional(str(4096)), userAgent: Type.Optional(str()), ...locale }),
  Search: data({ ...listing, totalProducts: Type.Optional(nonNegative()) }),
  PageChange: data(pageChange),
  SortByChange: data(listing),
  ProductClick: data({
    ...pageChange,
    clickProductId: productId(),
    /**
     * A click in a recommendation placement: GET /reports/recommendations counts those of the placements it knows
     * (RECOMMENDATION_PLACEMENTS); another name is kept, so a newer widget's events are not refused.
     */
    placement: Type.Optional(str(64)),
  }),
  PromotionClick: data({
    ...pageChange,
    promotions: Type.Optional(Type.Array(str(256), { maxItems: 200 })),
    clickPromotionId: Type.String({ minLength: 1, maxLength: 256 }),
  }),
  AddToCart: data({
    ...pageChange,
    totalProducts: Type.Optional(nonNegative()),
    addProductId: productId(),
    qty: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e6 })),
  }),
  OrderComplete: data(order),
  Purchase: data(order),
  ViewSimilarProducts: data({ productId: productId() }),
  SimilarProductClick: data({ similarProductId: productId(), clickProductId: productId() }),
  CTLLoad: data(ctl),
  CTLViewLookClick: data({ ...ctl, position: Type.Integer({ minimum: 1, maximum: 9 }) }),
  CTLProductClick: data({ ...ctl, selectedProduct: SelectedProduct }),
  CTLPopupProductClick: data({ ...ctl, selectedProduct: SelectedProduct }),
  CTLPageChange: data({ ...ctl, ...pages }),
  CTLPopupPageChange: data({ ...ctl, ...pages }),
} as const satisfies Record<EventType, TObject>;

export { EVENT_TYPES, type EventType } from "@storefront-search/contract";

/** Anonymous ids: random base-36 in the spec; letters, digits, '-' and '_' keep e-mail addresses out. */
export const ANONYMOUS_ID = Type.String({ minLength: 1, maxLength: 128, pattern: "^[A-Za-z0-9_-]+$" });
