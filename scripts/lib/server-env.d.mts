export function v8PoolSize(cores?: number): number;
export function serverEnv(env?: Record<string, string | undefined>): NodeJS.ProcessEnv;
