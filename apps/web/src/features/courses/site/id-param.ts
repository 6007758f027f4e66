/** A positive whole id from the address, else undefined (a hand-typed /preview/x is "not found", not a request). */
export function idParam(value: string | undefined): number | undefined {
  const id = Number(value);
  return value !== undefined && /^\d{1,10}$/.test(value) && id > 0 && id <= 2_147_483_647 ? id : undefined;
}
