// Words for counts, as pages, the CLI and the audits' findings say them.

/** "1 run", "2 runs"; `many` for a plural that is not the word and an s ("1 query", "2 queries"). */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
