/** The seeded accounts' password in the bench's throw-away database. */
export const BENCH_PASSWORD = 'bench-password-1';
