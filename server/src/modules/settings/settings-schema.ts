import { Type, type Static } from "@sinclair/typebox";

/* Per-store settings an admin key may change. Later features add their own members here. */

const Origin = Type.String({ maxLength: 300, pattern: "^(\\*|https?://[A-Za-z0-9.-]+(:\\d{1,5})?)$" });

export const StoreSettings = Type.Object(
  {
    /** Origins whose pages may call the browser routes; absent, empty or ["*"]: any origin. */
    allowedOrigins: Type.Optional(Type.Array(Origin, { maxItems: 100 })),
  },
  { additionalProperties: false },
);

export type StoreSettings = Static<typeof StoreSettings>;
