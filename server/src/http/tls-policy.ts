import { constants } from "node:crypto";

/*
 * TLS the server offers: TLS 1.2 and 1.3 only, and for TLS 1.2 only ECDHE key exchange with AEAD ciphers, so every
 * session has forward secrecy (a stolen certificate key cannot decrypt recorded traffic). TLS 1.3's suites are all
 * forward-secret. This is Mozilla's "intermediate" profile without its finite-field DHE suites.
 */
export const TLS_CIPHERS = [
  "ECDHE-ECDSA-AES128-GCM-SHA256",
  "ECDHE-RSA-AES128-GCM-SHA256",
  "ECDHE-ECDSA-AES256-GCM-SHA384",
  "ECDHE-RSA-AES256-GCM-SHA384",
  "ECDHE-ECDSA-CHACHA20-POLY1305",
  "ECDHE-RSA-CHACHA20-POLY1305",
].join(":");

export const TLS_SECURE_OPTIONS = constants.SSL_OP_NO_SSLv3 | constants.SSL_OP_NO_TLSv1 | constants.SSL_OP_NO_TLSv1_1;
