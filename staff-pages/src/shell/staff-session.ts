/*
 * Signing store staff in on the pages that change a store (/merchandising, the demo's /theme), bundled into each
 * page's script: the store id and admin key are kept in this tab's sessionStorage only and sent as headers, never
 * in a URL. The page's own first load proves them. Elements are those of sign-in.html beside this file.
 */

export interface Credentials {
  storeId: string;
  adminKey: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const API = "/1.9";

/** Calls the API with the admin key; an answer that is not 2xx throws an ApiError with the service's message. */
export async function adminApi<T = Record<string, unknown>>(c: Credentials, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(API + path, {
    method,
    headers: {
      "X-Service-Store-ID": c.storeId,
      "X-Service-API-Key": c.adminKey,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new ApiError(res.status, typeof answer.message === "string" ? answer.message : `The service answered ${res.status}.`);
  return answer as T;
}

const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/**
 * Wires the sign-in form and "Sign out", and signs in again with what this tab kept. `load` reads what the page
 * shows; a load that fails signs out with its reason (a 401: a wrong id or key).
 */
export function startStaffSession(o: { storageKey: string; workspace: HTMLElement; load: (c: Credentials) => Promise<void> }): void {
  let current: Credentials | null = null;
  const show = (signedIn: boolean) => {
    byId("sign-in").hidden = signedIn;
    o.workspace.hidden = !signedIn;
    byId("session").hidden = !signedIn;
    byId("session-store").textContent = current?.storeId ?? "";
  };
  const reason = (error: unknown) =>
    error instanceof ApiError && error.status === 401 ? "The store id or the admin key is wrong." : (error as Error).message;
  const signOut = (message = "") => {
    sessionStorage.removeItem(o.storageKey);
    current = null;
    show(false);
    byId("sign-in-error").textContent = message;
  };
  const signIn = async (c: Credentials) => {
    current = c;
    await o.load(c);
    sessionStorage.setItem(o.storageKey, JSON.stringify(c));
    byId<HTMLInputElement>("admin-key").value = "";
    byId("sign-in-error").textContent = "";
    show(true);
  };

  byId("sign-out").addEventListener("click", () => signOut());
  byId("sign-in-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const storeId = byId<HTMLInputElement>("store-id").value.trim();
    const adminKey = byId<HTMLInputElement>("admin-key").value.trim();
    if (!storeId || !adminKey) return void (byId("sign-in-error").textContent = "Enter the store id and its admin key.");
    signIn({ storeId, adminKey }).catch((error: unknown) => {
      current = null;
      byId("sign-in-error").textContent = reason(error);
    });
  });

  let kept: Credentials | null = null;
  try {
    const c = JSON.parse(sessionStorage.getItem(o.storageKey) ?? "null") as Partial<Credentials> | null;
    if (c && typeof c.storeId === "string" && typeof c.adminKey === "string" && c.storeId && c.adminKey)
      kept = { storeId: c.storeId, adminKey: c.adminKey };
  } catch {
    kept = null;
  }
  if (kept) signIn(kept).catch((error: unknown) => signOut(reason(error)));
  else show(false);
}
