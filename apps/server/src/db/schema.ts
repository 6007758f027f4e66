import type { ColumnType, Generated } from 'kysely';

/**
 * The tables as Kysely sees them. Times are epoch milliseconds in bigint columns on both
 * dialects: portable, sortable, and free of the time-zone guessing that TEXT dates invite.
 * Flags are integers, 0 or 1, on both dialects (see `flag` in db/migration-helpers.ts).
 */
export interface Database {
  app_setting: AppSettingTable;
  sys_dept: DeptTable;
  sys_user: UserTable;
  sys_role: RoleTable;
  sys_menu: MenuTable;
  sys_users_roles: { user_id: number; role_id: number };
  sys_roles_menus: { role_id: number; menu_id: number };
  sys_roles_depts: { role_id: number; dept_id: number };
  sys_dict: DictTable;
  sys_dict_detail: DictDetailTable;
  sys_session: SessionTable;
  sys_captcha: CaptchaTable;
  sys_login_throttle: LoginThrottleTable;
  sys_log: LogTable;
  sys_local_storage: LocalStorageTable;
  sys_job: JobTable;
  edu_category: CategoryTable;
  edu_media: MediaTable;
  edu_course: CourseTable;
  edu_term: TermTable;
  edu_chapter: ChapterTable;
  edu_lesson: LessonTable;
  edu_applicant: ApplicantTable;
  edu_assignment_rule: AssignmentRuleTable;
  edu_lesson_progress: LessonProgressTable;
  edu_playback: PlaybackTable;
  edu_study_day: StudyDayTable;
  edu_question: QuestionTable;
  edu_tag: { id: Id; name: string };
  edu_question_tag: { id: Id; question_id: number; tag_id: number };
  edu_question_image: QuestionImageTable;
  edu_exam: ExamTable;
  edu_exam_question: { id: Id; exam_id: number; question_id: number };
  edu_exam_assignee: ExamAssigneeTable;
  edu_attempt: AttemptTable;
  edu_attempt_answer: AttemptAnswerTable;
  edu_attempt_event: AttemptEventTable;
  edu_score_change: ScoreChangeTable;
  edu_cert_template: CertTemplateTable;
  edu_cert_template_version: CertTemplateVersionTable;
  edu_certificate: CertificateTable;
  edu_cert_sequence: { scope: string; value: number };
  edu_cert_rule: CertRuleTable;
  edu_census_course: CensusCourseTable;
  edu_census_login: CensusLoginTable;
  sys_notification: NotificationTable;
  sys_notification_pref: { user_id: number; kind: string; enabled: Flag };
  sys_deploy_package: DeployPackageTable;
  sys_cloud_file: CloudFileTable;
  sys_idempotency: IdempotencyTable;
}

type Flag = 0 | 1;
type Id = Generated<number>;

export interface AppSettingTable {
  key: string;
  value: string;
  updated_at: ColumnType<number, number, number>;
}

/** Who created and last changed a row, and when. */
interface Audited {
  id: Id;
  create_by: string | null;
  update_by: string | null;
  create_time: number;
  update_time: number;
}

export interface DeptTable extends Audited {
  pid: number | null;
  name: string;
  dept_sort: number;
  enabled: Flag;
  sub_count: number;
}

export interface UserTable extends Audited {
  dept_id: number | null;
  username: string;
  nick_name: string;
  gender: string | null;
  phone: string | null;
  email: string | null;
  avatar_name: string | null;
  password_hash: string;
  is_admin: Flag;
  enabled: Flag;
  pwd_reset_time: number | null;
}

/** eladmin's wire values, kept verbatim: all, own department, chosen departments. */
export type DataScope = '全部' | '本级' | '自定义';

export interface RoleTable extends Audited {
  name: string;
  level: number;
  /** Chinese; `description_en` the English one (null: the Chinese one shows in English too). */
  description: string | null;
  description_en: ColumnType<string | null, string | null | undefined, string | null>;
  data_scope: DataScope;
}

/** 0 directory, 1 page, 2 button. */
export type MenuType = 0 | 1 | 2;

export interface MenuTable extends Audited {
  pid: number | null;
  type: MenuType;
  title: string;
  /** Null: the Chinese title is shown in English too. */
  title_en: string | null;
  component_name: string | null;
  component: string | null;
  path: string | null;
  icon: string | null;
  menu_sort: number;
  permission: string | null;
  i_frame: Flag;
  cache: Flag;
  hidden: Flag;
  sub_count: number;
}

export interface DictTable extends Audited {
  name: string;
  description: string | null;
}

export interface DictDetailTable extends Audited {
  dict_id: number;
  label: string;
  /** Null: the Chinese label is shown in English too. */
  label_en: string | null;
  value: string;
  dict_sort: number;
}

export interface SessionTable {
  id: string;
  user_id: number;
  ip: string;
  browser: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export interface CaptchaTable {
  uuid: string;
  answer: string;
  expires_at: number;
  /** Who asked for it (`request.ip`); null on rows from before 0028. */
  address: string | null;
}

export interface LoginThrottleTable {
  key: string;
  window_start: number;
  attempts: number;
  consecutive_failures: number;
  locked_until: number | null;
}

export interface LogTable {
  id: Id;
  username: string | null;
  description: string;
  method: string;
  params: string | null;
  log_type: 'INFO' | 'ERROR';
  status: number;
  request_ip: string | null;
  browser: string | null;
  time: number;
  exception_detail: string | null;
  create_time: number;
}

export interface LocalStorageTable extends Audited {
  real_name: string;
  name: string;
  suffix: string;
  path: string;
  type: string;
  size: number;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** A background job (jobs/job-runner.ts); `attempts` counts the claims, the one running included. */
export interface JobTable {
  id: Id;
  name: string;
  /** JSON. */
  payload: string;
  state: JobState;
  run_at: number;
  attempts: ColumnType<number, number | undefined, number>;
  max_attempts: number;
  last_error: string | null;
  dedupe_key: string | null;
  /** The runner holding a running job, and until when its lease lasts. */
  locked_by: string | null;
  locked_until: number | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface CategoryTable extends Audited {
  pid: number | null;
  name: string;
  sort: number;
  sub_count: number;
}

/** A published version of an installation package (migration 0021). */
export interface DeployPackageTable extends Audited {
  name: string;
  version: string;
  /** 'windows' | 'macos' | 'linux' | 'android' | 'ios' | 'any' (shared/deploy.ts). */
  platform: string;
  release_notes: string;
  file_name: string;
  file_key: string;
  size: number;
  sha256: string;
  downloads: ColumnType<number, number | undefined, number>;
}

export interface MediaTable extends Audited {
  name: string;
  mime: string;
  /** 'video' | 'document' | 'image' (shared/media.ts). */
  kind: string;
  size: number;
  file_key: string;
  duration_seconds: number | null;
  pages: number | null;
}

export interface CourseTable extends Audited {
  title: string;
  category_id: number | null;
  /** 'draft' | 'published' | 'archived'. */
  status: string;
  required: Flag;
  cover_media_id: number | null;
  summary: string;
  /** Sanitised HTML. */
  description: string;
  owner_id: number | null;
  max_playback_rate: number;
  allow_skip: Flag;
}

export interface TermTable extends Audited {
  course_id: number;
  name: string;
  start_at: number;
  end_at: number;
  capacity: number | null;
  /** 'open' | 'approval' | 'assigned'. */
  enrol_mode: string;
}

export interface ChapterTable extends Audited {
  course_id: number;
  title: string;
  sort: number;
}

export interface LessonTable extends Audited {
  course_id: number;
  chapter_id: number;
  title: string;
  /** 'video' | 'document' | 'text'. */
  type: string;
  media_id: number | null;
  /** Sanitised HTML. */
  content: string;
  completion_percent: number;
  preview: Flag;
  sort: number;
  /** Counts towards the course's completion. */
  required: ColumnType<Flag, Flag | undefined, Flag>;
}

export interface ApplicantTable extends Audited {
  term_id: number;
  user_id: number;
  /** 'applied' | 'approved' | 'rejected' | 'in_progress' | 'completed'. */
  status: string;
  /** 'self' | 'rule' | 'import' | 'staff'. */
  source: string;
  due_at: number | null;
  reason: string | null;
  /** The assignment rule that enrolled it (source 'rule'). */
  rule_id: number | null;
  completed_at: number | null;
}

export interface AssignmentRuleTable extends Audited {
  /** 'dept' | 'role' | 'users'. */
  target: string;
  /** JSON array of ids. */
  target_ids: string;
  term_id: number | null;
  exam_id: number | null;
  due_at: number | null;
}

export interface LessonProgressTable {
  id: Id;
  user_id: number;
  lesson_id: number;
  course_id: number;
  /** JSON array of merged [from, to] seconds. */
  intervals: string;
  covered_seconds: number;
  /** JSON array of page numbers. */
  pages_read: string;
  percent: number;
  position: number;
  completed_at: number | null;
  updated_at: number;
}

export interface PlaybackTable {
  id: Id;
  session_key: string;
  user_id: number;
  lesson_id: number;
  started_at: number;
  last_report_at: number;
  page: number | null;
  page_since: number | null;
  superseded: Flag;
  /** Seconds of coverage this playback has been credited, over all its reports. */
  credited_seconds: Generated<number>;
  /** The slack on the clock it started with (`startingTolerance`). */
  tolerance_seconds: Generated<number>;
}

export interface StudyDayTable {
  id: Id;
  user_id: number;
  /** yyyy-MM-dd in the organisation's zone (config `TZ`). */
  day: string;
  seconds: number;
}

export interface QuestionTable extends Audited {
  /** 'single' | 'multiple' | 'judge' | 'blank' | 'short'. */
  type: string;
  stem: string;
  stem_text: string;
  /** SHA-256 hex of the type and the normalised stem text. */
  stem_key: string;
  /** JSON [{ key, text }]. */
  options: string;
  /** JSON: keys, accepted answers per blank, or the reference answer. */
  answer: string;
  /** JSON BlankRules, for blanks. */
  blank_rules: string | null;
  analysis: string;
  difficulty: number;
  score: number;
  /** 'all' | 'proportional' | 'proportional_minus', for multiple choice. */
  policy: string | null;
}

export interface QuestionImageTable extends Audited {
  mime: string;
  size: number;
  file_key: string;
}

export interface ExamTable extends Audited {
  title: string;
  course_id: number | null;
  term_id: number | null;
  /** 'draft' | 'published'. */
  status: string;
  description: string;
  /** JSON Paper. */
  paper: string;
  total_score: number;
  question_count: number;
  open_at: number | null;
  close_at: number | null;
  limit_minutes: number | null;
  attempts: number;
  /** 'best' | 'last' | 'first'. */
  counts: string;
  pass_score: number;
  shuffle_questions: Flag;
  shuffle_options: Flag;
  /** 'never' | 'after_submit' | 'after_close'. */
  review: string;
}

export interface ExamAssigneeTable {
  id: Id;
  exam_id: number;
  user_id: number;
  /** 'staff' | 'rule'. */
  source: string;
  rule_id: number | null;
  due_at: number | null;
  extra_minutes: number;
  extra_attempts: number;
  open_at: number | null;
  close_at: number | null;
  create_by: string | null;
  create_time: number;
  update_time: number;
}

export interface AttemptTable {
  id: Id;
  exam_id: number;
  user_id: number;
  /** 1, 2, … among the person's attempts of the exam. */
  number: number;
  /** 'in_progress' | 'marking' | 'graded'. */
  state: string;
  started_at: number;
  /** Fixed at start; null: no limit and no window close. */
  deadline: number | null;
  submitted_at: number | null;
  /** 'learner' | 'server'. */
  submitted_by: string | null;
  /** Sum of the answers' scores once every one has a score. */
  score: number | null;
  passed: Flag | null;
  /** JSON FrozenPaper: the questions in this attempt's order with their sections, scores and option order. */
  paper: string;
  /** Where it started from, to note a change of address or device. */
  ip: string;
  agent: string;
  update_time: number;
}

export interface AttemptAnswerTable {
  id: Id;
  attempt_id: number;
  question_id: number;
  /** Place in the attempt's paper (0-based). */
  position: number;
  /** The question's points in this paper. */
  max_score: number;
  /** JSON AttemptResponse; null: not answered. */
  response: string | null;
  /** 0: never saved. */
  revision: number;
  saved_at: number | null;
  /** Seconds spent on it, as the client reported. */
  seconds: number;
  /** The scoring functions' score (null: a short answer, or not scored yet). */
  auto_score: number | null;
  /** A marker's score or an override's; wins over auto_score. */
  manual_score: number | null;
  /** The score in force: manual_score ?? auto_score; null while it awaits a marker. */
  score: number | null;
  /** Flag: whether it earned the full score (null: not decided). */
  correct: Flag | null;
  comment: string | null;
  marked_by: string | null;
  marked_at: number | null;
}

export interface AttemptEventTable {
  id: Id;
  attempt_id: number;
  type: string;
  at: number;
  question_id: number | null;
  detail: string;
}

export interface ScoreChangeTable {
  id: Id;
  attempt_id: number;
  answer_id: number;
  question_id: number;
  /** 'mark' | 'override' | 'regrade'. */
  kind: string;
  old_score: number | null;
  new_score: number | null;
  reason: string;
  create_by: string;
  create_time: number;
}

export interface CertTemplateTable extends Audited {
  name: string;
  number_pattern: string;
  validity_months: number | null;
  current_version_id: number | null;
}

export interface CertTemplateVersionTable {
  id: Id;
  template_id: number;
  version: number;
  /** JSON CertificateLayout. */
  layout: string;
  create_by: string | null;
  create_time: number;
}

export interface CertificateTable {
  id: Id;
  template_id: number;
  template_version_id: number;
  user_id: number;
  number: string;
  code: string;
  /** JSON CertificateSnapshot. */
  snapshot: string;
  holder_name: string;
  title: string;
  /** 'staff' | 'exam' | 'term' | 'import' | 'reissue'. */
  source: string;
  exam_id: number | null;
  term_id: number | null;
  issued_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  revoked_by: string | null;
  revoke_reason: string | null;
  superseded_by: number | null;
  superseded_at: number | null;
  supersedes: number | null;
  create_by: string | null;
  create_time: number;
  /** The rule that issued it (at most one per rule and person); null when issued otherwise. */
  rule_id: number | null;
}

export interface CertRuleTable extends Audited {
  template_id: number;
  exam_id: number | null;
  term_id: number | null;
}

/** One person's standing in one course they hold a place in (kept by the census module). */
export interface CensusCourseTable {
  id: Id;
  user_id: number;
  course_id: number;
  /** 'approved' | 'in_progress' | 'completed': the furthest of their enrolments in the course. */
  status: string;
  enrolled_at: number;
  completed_at: number | null;
  /** Required lessons of the course completed. */
  completed_lessons: number;
  updated_at: number;
}

/** One successful login. */
export interface CensusLoginTable {
  id: Id;
  user_id: number;
  at: number;
  ip: string;
  browser: string;
}

export interface NotificationTable {
  id: Id;
  user_id: number;
  /** A NotificationKind. */
  kind: string;
  /** JSON NotificationParams. */
  params: string;
  link: string | null;
  /** The event that made it; unique, so each is told once. */
  dedupe_key: string;
  create_time: number;
  read_time: number | null;
}

/** A file in the cloud storage bucket (0023). */
export interface CloudFileTable extends Audited {
  bucket: string;
  object_key: string;
  name: string;
  suffix: string;
  size: number;
}

/** The first answer to a person's Idempotency-Key (0026); `status` null while that request runs. */
export interface IdempotencyTable {
  user_id: number;
  idem_key: string;
  /** SHA-256 (hex) of the method, URL and body the key was first sent with. */
  request_hash: string;
  status: number | null;
  content_type: string | null;
  created_at: number;
  body: string | null;
}
