/** The who-and-when columns of a row being created. */
export function created(by: string, now: number) {
  return { create_by: by, update_by: by, create_time: now, update_time: now };
}

/** The who-and-when columns of a row being changed. */
export function changed(by: string, now: number) {
  return { update_by: by, update_time: now };
}
