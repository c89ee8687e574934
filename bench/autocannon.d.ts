// Just the part of autocannon's API bench/api.ts uses (the package ships no types).
declare module "autocannon" {
  type Histogram = { average: number; p50: number; p99: number };
  type Result = {
    requests: Histogram;
    latency: Histogram;
    "2xx": number;
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  type Options = {
    url: string;
    method?: "GET" | "POST";
    body?: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    workers?: number;
  };
  export default function autocannon(opts: Options): Promise<Result>;
}
