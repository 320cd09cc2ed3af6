// The admin script's side of the operator endpoint (./endpoint.ts): finds a running server that
// holds the embedded database, from <GEOSCOPE_DATA_DIR>/operator.json, and has it run a command.
import { readFileSync } from "node:fs";
import { operatorFilePath, type OperatorAnswer, type OperatorFile } from "./endpoint";

/** The running server's operator endpoint, or null when no live server wrote one into `dataDir`. */
export function runningServer(dataDir: string): OperatorFile | null {
  let file: OperatorFile;
  try {
    file = JSON.parse(readFileSync(operatorFilePath(dataDir), "utf8")) as OperatorFile;
  } catch {
    return null;
  }
  if (typeof file.url !== "string" || typeof file.token !== "string" || typeof file.pid !== "number") return null;
  try {
    process.kill(file.pid, 0);
  } catch (error) {
    // EPERM: alive, under another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  return file;
}

/** Sends one command; null when the endpoint does not answer (a server that died without removing its file). */
export async function sendOperatorCommand(server: OperatorFile, command: string, args: string[]): Promise<{ status: number; body: OperatorAnswer } | null> {
  let response: Response;
  try {
    response = await fetch(`${server.url}/commands`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
      body: JSON.stringify({ command, args }),
    });
  } catch {
    return null;
  }
  return { status: response.status, body: (await response.json()) as OperatorAnswer };
}
