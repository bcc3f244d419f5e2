/** A BCP 47 locale as settings, texts and the search `language` parameter take it ("en", "de-CH"). */
export const LOCALE_PATTERN = "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$";
