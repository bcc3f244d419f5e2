/*
 * Signing store staff in on every staff page, bundled into each page's script: the store id and admin key are
 * kept in this tab's sessionStorage only and sent as headers, never in a URL. The page's own first load proves
 * them. The elements are those of the shell (page.html beside this file): the sign-in form and the header's
 * session line.
 */

import { byId } from "./dom.ts";

export interface Credentials {
  storeId: string;
  adminKey: string;
}

/** An answer that is not 2xx (status 0: the server could not be reached), with the service's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const API = "/1.9";

/** Calls the API with the admin key; the answer when it is 2xx, else an ApiError. */
export async function adminFetch(c: Credentials, method: string, path: string, body?: unknown): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(API + path, {
      method,
      headers: {
        "X-Service-Store-ID": c.storeId,
        "X-Service-API-Key": c.adminKey,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: "omit",
      cache: "no-store",
      mode: "same-origin",
    });
  } catch {
    throw new ApiError(0, "The server could not be reached.");
  }
  if (!res.ok) {
    const answer = (await res.json().catch(() => ({}))) as { message?: unknown };
    throw new ApiError(
      res.status,
      typeof answer.message === "string" && answer.message ? answer.message : `The service answered ${res.status}.`,
    );
  }
  return res;
}

/** Calls the API with the admin key and reads its JSON answer (typed by the contract's wire types). */
export async function adminApi<T = Record<string, unknown>>(c: Credentials, method: string, path: string, body?: unknown): Promise<T> {
  return (await (await adminFetch(c, method, path, body)).json().catch(() => ({}))) as T;
}

export interface StaffSession {
  /** Forgets the key and shows the sign-in form with `message` (a later 401: the key was rotated). */
  signOut(message?: string): void;
}

/**
 * Wires the sign-in form and "Sign out", and signs in again with what this tab kept. `load` reads what the page
 * shows; a load that fails signs out with its reason (a 401: a wrong id or key). `signedOut` lets the page forget
 * what it showed.
 */
export function startStaffSession(o: {
  storageKey: string;
  workspace: HTMLElement;
  load: (c: Credentials) => Promise<void>;
  signedOut?: () => void;
}): StaffSession {
  let current: Credentials | null = null;
  const show = (signedIn: boolean) => {
    byId("sign-in").hidden = signedIn;
    o.workspace.hidden = !signedIn;
    byId("session").hidden = !signedIn;
    byId("session-store").textContent = current?.storeId ?? "";
  };
  const reason = (error: unknown) =>
    error instanceof ApiError && error.status === 401 ? "The store id or the admin key is wrong." : (error as Error).message;
  /** The sign-in form's first empty input takes the focus, so the keyboard is where the form is. */
  const focusForm = () => (byId<HTMLInputElement>("store-id").value ? byId("admin-key") : byId("store-id")).focus();
  const signOut = (message = "") => {
    sessionStorage.removeItem(o.storageKey);
    current = null;
    o.signedOut?.();
    byId<HTMLInputElement>("admin-key").value = "";
    show(false);
    byId("sign-in-error").textContent = message;
    focusForm();
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
    signIn({ storeId, adminKey }).then(
      () => {
        // The form is gone: the workspace's first heading takes the focus.
        const heading = o.workspace.querySelector<HTMLElement>("h2");
        if (heading) {
          heading.tabIndex = -1;
          heading.focus();
        }
      },
      (error: unknown) => {
        current = null;
        o.signedOut?.();
        byId("sign-in-error").textContent = reason(error);
      },
    );
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
  else {
    show(false);
    focusForm();
  }
  return { signOut };
}
