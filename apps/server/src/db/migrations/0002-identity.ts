import type { Kysely } from 'kysely';
import { createAuditedTable, createTableWithId, flag, notNull } from '../migration-helpers.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createAuditedTable(db, 'sys_dept')
    .addColumn('pid', 'integer')
    .addColumn('name', 'varchar(100)', notNull)
    .addColumn('dept_sort', 'integer', (col) => col.notNull().defaultTo(999))
    .addColumn('enabled', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('sub_count', 'integer', flag)
    .execute();
  await db.schema.createIndex('sys_dept_pid').on('sys_dept').column('pid').execute();

  await createAuditedTable(db, 'sys_user')
    .addColumn('dept_id', 'integer', (col) => col.references('sys_dept.id').onDelete('set null'))
    .addColumn('username', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('nick_name', 'varchar(64)', notNull)
    .addColumn('gender', 'varchar(8)')
    .addColumn('phone', 'varchar(32)')
    .addColumn('email', 'varchar(128)')
    .addColumn('avatar_name', 'varchar(255)')
    .addColumn('password_hash', 'varchar(255)', notNull)
    .addColumn('is_admin', 'integer', flag)
    .addColumn('enabled', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('pwd_reset_time', 'bigint')
    .execute();
  await db.schema.createIndex('sys_user_dept').on('sys_user').column('dept_id').execute();

  await createAuditedTable(db, 'sys_role')
    .addColumn('name', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('level', 'integer', (col) => col.notNull().defaultTo(3))
    .addColumn('description', 'varchar(255)')
    .addColumn('data_scope', 'varchar(16)', (col) => col.notNull().defaultTo('本级'))
    .execute();

  await createAuditedTable(db, 'sys_menu')
    .addColumn('pid', 'integer')
    .addColumn('type', 'integer', notNull)
    .addColumn('title', 'varchar(100)', notNull)
    .addColumn('component_name', 'varchar(100)')
    .addColumn('component', 'varchar(255)')
    .addColumn('path', 'varchar(255)')
    .addColumn('icon', 'varchar(64)')
    .addColumn('menu_sort', 'integer', (col) => col.notNull().defaultTo(999))
    .addColumn('permission', 'varchar(100)')
    .addColumn('i_frame', 'integer', flag)
    .addColumn('cache', 'integer', flag)
    .addColumn('hidden', 'integer', flag)
    .addColumn('sub_count', 'integer', flag)
    .execute();
  await db.schema.createIndex('sys_menu_pid').on('sys_menu').column('pid').execute();
  await db.schema.createIndex('sys_menu_title').on('sys_menu').column('title').unique().execute();

  await db.schema
    .createTable('sys_users_roles')
    .addColumn('user_id', 'integer', (col) => col.notNull().references('sys_user.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (col) => col.notNull().references('sys_role.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('sys_users_roles_pk', ['user_id', 'role_id'])
    .execute();
  await db.schema.createIndex('sys_users_roles_role').on('sys_users_roles').column('role_id').execute();
  await db.schema
    .createTable('sys_roles_menus')
    .addColumn('role_id', 'integer', (col) => col.notNull().references('sys_role.id').onDelete('cascade'))
    .addColumn('menu_id', 'integer', (col) => col.notNull().references('sys_menu.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('sys_roles_menus_pk', ['role_id', 'menu_id'])
    .execute();
  await db.schema.createIndex('sys_roles_menus_menu').on('sys_roles_menus').column('menu_id').execute();
  await db.schema
    .createTable('sys_roles_depts')
    .addColumn('role_id', 'integer', (col) => col.notNull().references('sys_role.id').onDelete('cascade'))
    .addColumn('dept_id', 'integer', (col) => col.notNull().references('sys_dept.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('sys_roles_depts_pk', ['role_id', 'dept_id'])
    .execute();

  await createAuditedTable(db, 'sys_dict')
    .addColumn('name', 'varchar(100)', (col) => col.notNull().unique())
    .addColumn('description', 'varchar(255)')
    .execute();
  await createAuditedTable(db, 'sys_dict_detail')
    .addColumn('dict_id', 'integer', (col) => col.notNull().references('sys_dict.id').onDelete('cascade'))
    .addColumn('label', 'varchar(100)', notNull)
    .addColumn('value', 'varchar(100)', notNull)
    .addColumn('dict_sort', 'integer', (col) => col.notNull().defaultTo(999))
    .execute();
  await db.schema.createIndex('sys_dict_detail_dict').on('sys_dict_detail').column('dict_id').execute();

  // A session is the server's record of a login; the JWT only names it, so deleting the row
  // ends the session everywhere at once.
  await db.schema
    .createTable('sys_session')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'integer', (col) => col.notNull().references('sys_user.id').onDelete('cascade'))
    .addColumn('ip', 'varchar(64)', notNull)
    .addColumn('browser', 'varchar(128)', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('last_seen_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('sys_session_user').on('sys_session').column('user_id').execute();

  await db.schema
    .createTable('sys_captcha')
    .addColumn('uuid', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('answer', 'varchar(16)', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .execute();

  // Fixed-window counters and lockouts for logins, keyed by 'ip:…' or 'user:…'; kept for
  // usernames that do not exist too, so a lockout reveals nothing about who has an account.
  await db.schema
    .createTable('sys_login_throttle')
    .addColumn('key', 'varchar(160)', (col) => col.primaryKey())
    .addColumn('window_start', 'bigint', notNull)
    .addColumn('attempts', 'integer', flag)
    .addColumn('consecutive_failures', 'integer', flag)
    .addColumn('locked_until', 'bigint')
    .execute();

  await createTableWithId(db, 'sys_log')
    .addColumn('username', 'varchar(64)')
    .addColumn('description', 'varchar(255)', notNull)
    .addColumn('method', 'varchar(255)', notNull)
    .addColumn('params', 'text')
    .addColumn('log_type', 'varchar(8)', notNull)
    .addColumn('status', 'integer', notNull)
    .addColumn('request_ip', 'varchar(64)')
    .addColumn('browser', 'varchar(128)')
    .addColumn('time', 'integer', notNull)
    .addColumn('exception_detail', 'text')
    .addColumn('create_time', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('sys_log_create_time').on('sys_log').column('create_time').execute();

  await createAuditedTable(db, 'sys_local_storage')
    .addColumn('real_name', 'varchar(255)', notNull)
    .addColumn('name', 'varchar(255)', notNull)
    .addColumn('suffix', 'varchar(32)', notNull)
    .addColumn('path', 'varchar(255)', notNull)
    .addColumn('type', 'varchar(32)', notNull)
    .addColumn('size', 'bigint', notNull)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'sys_local_storage',
    'sys_log',
    'sys_login_throttle',
    'sys_captcha',
    'sys_session',
    'sys_dict_detail',
    'sys_dict',
    'sys_roles_depts',
    'sys_roles_menus',
    'sys_users_roles',
    'sys_menu',
    'sys_role',
    'sys_user',
    'sys_dept',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
