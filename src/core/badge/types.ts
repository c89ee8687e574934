/** A shields.io endpoint badge, exactly the keys we emit (https://shields.io/badges/endpoint-badge). */
export type EndpointBadge = {
  schemaVersion: 1;
  label: string;
  /** Never empty (shields rejects an empty message). */
  message: string;
  color: string;
  /** Shields ignores values below 300. */
  cacheSeconds: number;
};
