// Gives a test file its own fresh database, installed as the app's, for the whole file.
import { afterAll, beforeAll } from "vitest";
import { freshPglite, type FreshDb } from "./db";

export function useTestDatabase(): void {
  let fresh: FreshDb | undefined;
  beforeAll(async () => {
    fresh = await freshPglite();
  });
  afterAll(async () => {
    await fresh?.close();
  });
}
