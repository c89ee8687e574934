import { describe, expect, it } from "vitest";
import { budgetRemaining, createMetrics, hubEndpoint } from "./metrics.ts";

describe("metrics", () => {
  it("names Hub endpoints without repo names", () => {
    const hub = "http://127.0.0.1:1";
    expect(hubEndpoint(`${hub}/api/models/acme/m/commits/main?p=1`)).toBe("commits");
    expect(hubEndpoint(`${hub}/api/models/acme/m/tree/abc/sub`)).toBe("tree");
    expect(hubEndpoint(`${hub}/api/models/acme/m/paths-info/abc`)).toBe("paths-info");
    expect(hubEndpoint(`${hub}/api/models/acme/m`)).toBe("info");
    expect(hubEndpoint(`${hub}/acme/m/resolve/abc/config.json`)).toBe("resolve");
    expect(hubEndpoint(`${hub}/api/models?author=acme`)).toBe("list");
    expect(hubEndpoint("not a url")).toBe("other");
  });

  it("reads the budget left from the RateLimit header", () => {
    expect(budgetRemaining(new Headers({ RateLimit: '"api";r=499;t=42' }))).toBe(499);
    expect(budgetRemaining(new Headers({ RateLimit: '"api";t=42' }))).toBeNull();
    expect(budgetRemaining(undefined)).toBeNull();
  });

  it("counts Hub answers and job runs in Prometheus text; store gauges stay empty without a store", async () => {
    const m = createMetrics();
    m.hubResponse("http://h/api/models/a/b/commits/main", 429, new Headers({ RateLimit: '"api";r=0;t=9' }));
    m.hubResponse("http://h/a/b/resolve/x/config.json", 200);
    m.jobFinished("advance-repo", "ok", 0.2);
    const text = await m.registry.metrics();
    expect(text).toContain('hubwatch_hub_requests_total{endpoint="commits",status="429"} 1');
    expect(text).toContain('hubwatch_hub_requests_total{endpoint="resolve",status="200"} 1');
    expect(text).toContain("hubwatch_hub_rate_limited_total 1");
    expect(text).toContain("hubwatch_hub_budget_remaining 0");
    expect(text).toContain('hubwatch_job_duration_seconds_count{job="advance-repo",outcome="ok"} 1');
    expect(text).not.toMatch(/^hubwatch_revisions\{/m);
  });
});
