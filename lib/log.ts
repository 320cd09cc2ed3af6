// Structured server log: one JSON object a line on stderr. Never pass secrets to it.
type Level = "debug" | "info" | "warn" | "error";

function write(level: Level, message: string, fields: Record<string, unknown>): void {
  if (level === "debug" && !process.env.GEOSCOPE_DEBUG) return;
  const entry = { time: new Date().toISOString(), level, message, ...fields };
  process.stderr.write(`${JSON.stringify(entry, errorReplacer)}\n`);
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (typeof value === "bigint") return value.toString();
  return value;
}

export const log = {
  debug: (message: string, fields: Record<string, unknown> = {}) => write("debug", message, fields),
  info: (message: string, fields: Record<string, unknown> = {}) => write("info", message, fields),
  warn: (message: string, fields: Record<string, unknown> = {}) => write("warn", message, fields),
  error: (message: string, fields: Record<string, unknown> = {}) => write("error", message, fields),
};
