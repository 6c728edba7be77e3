/** The `fathom` command's exit codes. */
export const EXIT = { done: 0, failed: 1, usage: 2, cancelled: 130 } as const;
