import pg from "pg";

/** The migrated database that test databases are copied from; rebuilt by test/global-setup.ts. */
export const TEMPLATE_DB = "hubwatch_tmpl";

export function adminUrlFor(user: string): string {
  return `postgres://${encodeURIComponent(user)}@127.0.0.1:5432/postgres`;
}

/** `url` pointing at database `name` instead. */
export function dbUrl(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs `fn` on a short-lived connection to the admin database. */
export async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
