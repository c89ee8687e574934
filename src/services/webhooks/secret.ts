import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** A Standard Webhooks symmetric secret: 32 random bytes, base64, `whsec_` prefix. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The secrets that sign now: the current one, and during a rotation the previous one until it expires. */
export function signingSecrets(
  sub: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): string[] {
  const previous =
    sub.previousSecret && sub.previousSecretExpiresAt && sub.previousSecretExpiresAt > now
      ? [sub.previousSecret]
      : [];
  return [sub.secret, ...previous];
}

/**
 * The three Standard Webhooks headers for one attempt; `msgId` stays the same across retries. With
 * several secrets (a rotation), `webhook-signature` carries one space-separated signature per secret,
 * so receivers verifying with either the old or the new secret accept it.
 */
export function signedHeaders(
  secrets: string | readonly string[],
  msgId: string,
  body: string,
  now: Date,
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const at = new Date(timestamp * 1000);
  const list = typeof secrets === "string" ? [secrets] : secrets;
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": list.map((s) => new Webhook(s).sign(msgId, at, body)).join(" "),
  };
}
