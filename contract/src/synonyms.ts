/*
 * Synonym sets as the admin API takes and answers them (PUT, GET, import of /synonyms), and the sets the service
 * proposes from what shoppers searched (GET /synonym-proposals). Multi-way: every phrase finds the others;
 * one-way: typing `input` also finds `synonyms`, never the reverse.
 */

import type { ImportReport, Page } from "./admin.ts";

/** What PUT /synonyms/{id} takes. */
export interface SynonymBody {
  /** Present: a one-way set. */
  input?: string;
  synonyms: string[];
}

export interface SynonymSet extends SynonymBody {
  id: string;
  type: "multiWay" | "oneWay";
  updatedAt: string;
}

/** GET /synonyms. */
export type SynonymList = Page<"synonyms", SynonymSet>;

/** POST /synonyms/import: the first errors, and how many there were. */
export interface SynonymImportReport extends ImportReport {
  errorCount: number;
}

/** A one-way set proposed for a query shoppers found nothing for (or clicked nothing of), with its evidence. */
export interface SynonymProposal {
  /** A synonym set id made from the query: PUT /synonyms/{id} accepts the proposal. */
  id: string;
  input: string;
  synonyms: string[];
  evidence: {
    /** Searches counted: shoppers' searches (reports) or the previous provider's (import). */
    searches: number;
    /** Of them, found nothing. */
    noResults: number;
    /** Of those that found something, none clicked. */
    noClicks: number;
    /** How close each proposed word is to the query's meaning (cosine, 0 to 1). */
    closeness: number[];
    source: "searches" | "import";
  };
}

/** GET /synonym-proposals. */
export interface SynonymProposals {
  proposals: SynonymProposal[];
}
