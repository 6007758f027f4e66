import type { ColumnType } from 'kysely';

/**
 * The tables as Kysely sees them. Times are epoch milliseconds in bigint columns on both
 * dialects: portable, sortable, and free of the time-zone guessing that TEXT dates invite.
 */
export interface Database {
  app_setting: AppSettingTable;
}

export interface AppSettingTable {
  key: string;
  value: string;
  updated_at: ColumnType<number, number, number>;
}
