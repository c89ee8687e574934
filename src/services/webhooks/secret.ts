import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** A Standard Webhooks symmetric secret: 32 random bytes, base64, `whsec_` prefix. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The three Standard Webhooks headers for one attempt; `msgId` stays the same across retries. */
export function signedHeaders(
  secret: string,
  msgId: string,
  body: string,
  now: Date,
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": new Webhook(secret).sign(msgId, new Date(timestamp * 1000), body),
  };
}
