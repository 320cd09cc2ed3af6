// Loading an object for a research page: the API's service, as the signed-in person; anything
// the API would answer 404 for (missing, malformed, outside the person's workspaces) is the
// not-found page, exactly as a missing object.
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/http/errors";

export async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") notFound();
    throw error;
  }
}

/** One search parameter as a string, or undefined (a repeated one counts once). */
export function param(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v === "" ? undefined : v;
}
