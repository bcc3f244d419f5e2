/** How fast shopper behaviour fades: ranking evidence (clicks, carts, purchases) and a shopper's taste. */
export const BEHAVIOUR_HALF_LIFE_DAYS = 14;
export const AFFINITY_HALF_LIFE_DAYS = 7;
