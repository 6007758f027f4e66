import type { ProgressResult, SiteLesson } from '@cloud-classroom/shared/progress';
import { useLocaleText } from '../../../lib/use-locale-text';
import { LessonContent } from './lesson-content';
import { useProgressReporter } from './use-progress-reporter';

/**
 * A text lesson is one page: it reports that page while it is on screen, and the server counts it
 * read once it has stayed open for the lesson's dwell.
 */
export function TextLesson({ lesson, onResult }: { lesson: SiteLesson; onResult: (result: ProgressResult) => void }) {
  const { t } = useLocaleText();
  const { controls, superseded } = useProgressReporter({ lessonId: lesson.id, subject: { kind: 'page', page: () => 1 }, onResult });
  return (
    <div className="text-lesson">
      <LessonContent html={lesson.content} />
      {superseded && <SupersededNotice onResume={controls.start} text={t('play.superseded')} action={t('play.continueHere')} />}
    </div>
  );
}

/** Another tab or device took the lesson over; a page (not a video, whose play button does it) offers to take it back. */
export function SupersededNotice({ text, action, onResume }: { text: string; action: string; onResume: () => void }) {
  return (
    <div className="play-notice play-notice--warning" role="alert">
      <span>{text}</span>
      <button type="button" className="button" onClick={onResume}>
        {action}
      </button>
    </div>
  );
}
