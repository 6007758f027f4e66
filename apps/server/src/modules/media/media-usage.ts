/**
 * What only the courses know about a media file, which the media service asks before it lets
 * one be deleted or streamed: the courses module implements it (`CoursesService.mediaUsage`).
 */
export interface MediaUsage {
  /** Those of `ids` that a lesson or a course cover uses. */
  usedAmong(ids: readonly number[]): Promise<number[]>;
  /**
   * Whether this person may see the file as a learner: a cover of a published course, or the
   * media of a lesson they may study (a free-preview lesson of a published course, or one of a
   * course they are enrolled in). Staff holding `course:list` are let through before this.
   */
  readableBy(userId: number, mediaId: number): Promise<boolean>;
}
