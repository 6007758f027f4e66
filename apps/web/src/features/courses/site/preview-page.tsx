import type { Applied, SiteCourseDetail, SiteTerm } from '@cloud-classroom/shared/progress';
import { fieldOfMessage } from '@cloud-classroom/shared/message-format';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorState } from '../../../components/site/error-state';
import { LoadingSkeleton } from '../../../components/site/loading-skeleton';
import { SiteShell } from '../../../components/site/site-shell';
import { SiteTag } from '../../../components/site/site-tag';
import { useDocumentTitle } from '../../../components/site/use-document-title';
import { useOneAction } from '../../../components/site/use-one-action';
import { useSiteData } from '../../../components/site/use-site-data';
import { http, HttpError } from '../../../lib/http-client';
import { localizeMessage, useLocaleText } from '../../../lib/use-locale-text';
import { CourseCoverImage } from './course-card';
import { idParam } from './id-param';
import { CourseOutline } from './course-outline';
import './course-site.css';

/** `yyyy-MM-dd HH:mm`: the wire's time without seconds. */
const minutes = (time: string) => time.slice(0, 16);

function TermFacts({ term }: { term: SiteTerm }) {
  const { t } = useLocaleText();
  return (
    <>
      <span className="course-site-term__name">{term.name}</span>
      <span className="site-muted">
        {minutes(term.startAt)} – {minutes(term.endAt)}
      </span>
      <span>
        <SiteTag tone={term.enrolMode === 'assigned' ? 'default' : 'primary'}>{t(`preview.mode.${term.enrolMode}`)}</SiteTag>{' '}
        {term.seatsLeft === null ? (
          <span className="site-muted">{t('preview.unlimited')}</span>
        ) : term.seatsLeft <= 0 ? (
          <SiteTag tone="danger">{t('preview.full')}</SiteTag>
        ) : (
          <span className="site-muted">{t('preview.seatsLeft', { count: term.seatsLeft })}</span>
        )}
      </span>
    </>
  );
}

/** The server's refusal in the page's language: the catalogue's words where it has them, without the field's name. */
function refusalText(language: Parameters<typeof localizeMessage>[0], error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const whole = localizeMessage(language, message);
  return whole !== message ? whole : localizeMessage(language, fieldOfMessage(message).text);
}

function ApplyForm({ course, onApplied }: { course: SiteCourseDetail; onApplied: (applied: Applied) => void }) {
  const { t, language } = useLocaleText();
  const open = course.terms.filter((term) => term.enrolMode !== 'assigned');
  const available = open.filter((term) => term.seatsLeft === null || term.seatsLeft > 0);
  const [termId, setTermId] = useState<number | undefined>(available.length === 1 ? available[0]?.id : undefined);
  const { busy, run } = useOneAction();
  const [error, setError] = useState<string>();

  if (course.terms.length === 0) return <p className="site-notice">{t('preview.noTerms')}</p>;
  if (open.length === 0) return <p className="site-notice">{t('preview.assignedOnly')}</p>;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (termId === undefined) {
      setError(t('preview.chooseTerm'));
      return;
    }
    setError(undefined);
    await run(async (action) => {
      try {
        onApplied(await http.post<Applied>(`api/site/courses/${course.id}/apply`, { termId }, { silent: true, action }));
      } catch (caught) {
        if (caught instanceof HttpError && (caught.status === 401 || caught.status === 403)) return;
        setError(refusalText(language, caught));
      }
    });
  };

  return (
    <form className="course-site-action" onSubmit={(event) => void submit(event)} noValidate>
      <fieldset className="course-site-terms course-site-fieldset">
        <legend className="course-site-legend">
          {t('preview.chooseTerm')}
        </legend>
        {open.map((term) => {
          const full = term.seatsLeft !== null && term.seatsLeft <= 0;
          return (
            <label key={term.id} className={`course-site-term course-site-term--choice${full ? ' course-site-term--disabled' : ''}`}>
              <input type="radio" name="termId" value={term.id} disabled={full} checked={termId === term.id} onChange={() => setTermId(term.id)} />
              <span className="course-site-term__facts">
                <TermFacts term={term} />
              </span>
            </label>
          );
        })}
      </fieldset>
      {error !== undefined && (
        <p className="site-notice site-notice--danger" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button--primary button--large" disabled={busy || available.length === 0}>
        {busy ? t('preview.applying') : t('preview.apply')}
      </button>
    </form>
  );
}

function CourseAction({ course, onChanged }: { course: SiteCourseDetail; onChanged: () => void }) {
  const { t } = useLocaleText();
  const [justApplied, setJustApplied] = useState<Applied>();
  const status = justApplied?.status ?? course.enrolment?.status;

  if (status === 'approved' || status === 'in_progress' || status === 'completed') {
    const started = course.progress.completedLessons > 0 || course.progress.percent > 0 || status !== 'approved';
    return (
      <div className="course-site-action">
        {justApplied !== undefined && (
          <p className="site-notice site-notice--success" role="status">
            {t('preview.enrolled')}
          </p>
        )}
        <Link className="button button--primary button--large" to={`/learning/${course.id}`}>
          {started ? t('preview.continue') : t('preview.start')}
        </Link>
      </div>
    );
  }
  if (status === 'applied') {
    return (
      <p className="site-notice site-notice--warning" role="status">
        {t('preview.pending')}
      </p>
    );
  }
  return (
    <div className="course-site-action">
      {status === 'rejected' && (
        <p className="site-notice site-notice--danger">
          {course.enrolment?.reason ? t('preview.rejected', { reason: course.enrolment.reason }) : t('preview.rejectedNoReason')}
        </p>
      )}
      <ApplyForm
        course={course}
        onApplied={(applied) => {
          setJustApplied(applied);
          onChanged();
        }}
      />
    </div>
  );
}

function Outline({ course }: { course: SiteCourseDetail }) {
  const { t } = useLocaleText();
  return (
    <CourseOutline
      course={course}
      empty={<p className="site-muted">{t('preview.noLessons')}</p>}
      tags={(lesson) => lesson.preview && !course.mayStudy && <SiteTag tone="success">{t('preview.freePreview')}</SiteTag>}
    />
  );
}

/**
 * A course's details for a learner deciding (`/preview/{id}`): what it is, its outline (free
 * previews open), its terms with dates, mode and seats, and what I can do: apply to a term, wait
 * for approval, read why I was refused, or go on learning.
 */
export function PreviewPage() {
  const { t } = useLocaleText();
  const id = idParam(useParams().id);
  const course = useSiteData<SiteCourseDetail>(id === undefined ? undefined : `api/site/courses/${id}`);
  const detail = course.data;
  useDocumentTitle(detail?.title ?? t('learning.details'));

  let body;
  if (id === undefined) body = <ErrorState error={new HttpError(404, 'not found')} />;
  else if (detail === undefined && course.loading) body = <LoadingSkeleton lines={6} />;
  else if (detail === undefined) body = <ErrorState error={course.error} onRetry={course.reload} />;
  else {
    const lessons = detail.outline.reduce((sum, chapter) => sum + chapter.lessons.length, 0);
    body = (
      <>
        <div className="course-site-hero">
          <CourseCoverImage cover={detail.cover} title={detail.title} />
          <div>
            <h1 className="course-site-hero__title">{detail.title}</h1>
            {detail.summary !== '' && <p className="course-site-hero__summary">{detail.summary}</p>}
            <div className="course-site-hero__meta">
              {detail.required && <SiteTag tone="primary">{t('site.required')}</SiteTag>}
              {detail.categoryName !== null && <SiteTag>{detail.categoryName}</SiteTag>}
              <span>{t('preview.chapters', { count: detail.outline.length })}</span>
              <span>{t('site.lessons', { count: lessons })}</span>
            </div>
            <CourseAction course={detail} onChanged={course.reload} />
          </div>
        </div>
        <div className="course-site-layout">
          <div>
            <section className="site-section" aria-labelledby="preview-description">
              <h2 id="preview-description" className="site-section__title site-section__title--spaced">
                {t('preview.description')}
              </h2>
              <div className="site-card">
                {detail.description.trim() === '' ? (
                  <p className="site-muted">{t('preview.noDescription')}</p>
                ) : (
                  // Sanitised on the server before it was stored (rich-text.ts's allow-list).
                  <div className="course-site-description" dangerouslySetInnerHTML={{ __html: detail.description }} />
                )}
              </div>
            </section>
            <section className="site-section" aria-labelledby="preview-outline">
              <h2 id="preview-outline" className="site-section__title site-section__title--spaced">
                {t('preview.outline')}
              </h2>
              <Outline course={detail} />
            </section>
          </div>
          <aside className="site-section" aria-labelledby="preview-terms">
            <h2 id="preview-terms" className="site-section__title site-section__title--spaced">
              {t('preview.terms')}
            </h2>
            {detail.terms.length === 0 ? (
              <p className="site-muted">{t('preview.noTerms')}</p>
            ) : (
              <ul className="course-site-terms">
                {detail.terms.map((term) => (
                  <li key={term.id} className="course-site-term">
                    <TermFacts term={term} />
                  </li>
                ))}
              </ul>
            )}
          </aside>
        </div>
      </>
    );
  }
  return <SiteShell>{body}</SiteShell>;
}
