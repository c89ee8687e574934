import type { Db } from "../../db/types.ts";
import { getVuln, queryOsv, queryOsvBatch } from "../http/osv-api.ts";

/** `/v1/querybatch` answers: per query, `{id, modified}` of each vuln and a token when more follow. */
export type BatchResult = { vulns?: { id: string; modified?: string }[]; next_page_token?: string };
export type VulnSummary = { id: string; summary?: string; modified?: string };

/** An OSV-compatible source: hubwatch's own store, in process, or any server speaking OSV.dev's API. */
export type AdvisorySource = {
  /** How the report names it. */
  label: string;
  querybatch(queries: object[]): Promise<BatchResult[]>;
  /** One `/v1/query`, to follow a `next_page_token`. */
  query(query: object): Promise<BatchResult>;
  vuln(id: string): Promise<VulnSummary | null>;
};

/** The failure of an OSV server: the scan cannot say anything, so it exits 2. */
export class AdvisorySourceError extends Error {
  override name = "AdvisorySourceError";
}

/** The local store through the services behind the OSV API (no HTTP). */
export function storeAdvisories(db: Db, label: string): AdvisorySource {
  return {
    label,
    async querybatch(queries) {
      return (await queryOsvBatch(db, { queries })).results as BatchResult[];
    },
    async query(query) {
      return (await queryOsv(db, query)) as BatchResult;
    },
    async vuln(id) {
      return (await getVuln(db, id)) as VulnSummary | null;
    },
  };
}

async function call<T>(fetchFn: typeof fetch, url: string, init?: RequestInit): Promise<T | null> {
  let res: Response;
  try {
    res = await fetchFn(url, { ...init, signal: AbortSignal.timeout(60_000) });
  } catch (err) {
    throw new AdvisorySourceError(`cannot reach ${url}: ${(err as Error).message}`);
  }
  if (res.status === 404 && !init?.method) return null;
  if (!res.ok) {
    const body = (await res.text().catch(() => "")).slice(0, 300);
    throw new AdvisorySourceError(`${url} answered ${res.status}: ${body}`);
  }
  return (await res.json()) as T;
}

/** Any OSV-compatible server: `POST /v1/querybatch`, `POST /v1/query`, `GET /v1/vulns/{id}`. */
export function apiAdvisories(baseUrl: string, fetchFn: typeof fetch = fetch): AdvisorySource {
  const base = baseUrl.replace(/\/+$/, "");
  const post = (path: string, body: object) =>
    call<Record<string, unknown>>(fetchFn, `${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  return {
    label: base,
    async querybatch(queries) {
      const res = await post("/v1/querybatch", { queries });
      const results = res?.results;
      if (!Array.isArray(results) || results.length !== queries.length) {
        throw new AdvisorySourceError(`${base}/v1/querybatch answered without one result per query`);
      }
      return results as BatchResult[];
    },
    async query(query) {
      return ((await post("/v1/query", query)) ?? {}) as BatchResult;
    },
    vuln: (id) => call<VulnSummary>(fetchFn, `${base}/v1/vulns/${encodeURIComponent(id)}`),
  };
}
