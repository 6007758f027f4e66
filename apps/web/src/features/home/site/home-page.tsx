import type { SiteCategory, SiteCourse } from '@cloud-classroom/shared/courses';
import type { Page } from '@cloud-classroom/shared/http';
import type { MyCourse } from '@cloud-classroom/shared/progress';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/site/empty-state';
import { ErrorState } from '../../../components/site/error-state';
import { LoadingSkeleton } from '../../../components/site/loading-skeleton';
import { Pager } from '../../../components/site/pager';
import { ProgressBar } from '../../../components/site/progress-bar';
import { SiteShell } from '../../../components/site/site-shell';
import { SiteTag } from '../../../components/site/site-tag';
import { useDocumentTitle } from '../../../components/site/use-document-title';
import { useSiteData, type SiteData } from '../../../components/site/use-site-data';
import { useLocaleText } from '../../../lib/use-locale-text';
import { canUseBackOffice, useUserStore } from '../../auth/user-store';
import { CourseCard } from '../../courses/site/course-card';
import '../../courses/site/course-site.css';

const PAGE_SIZE = 12;

/** A whole number ≥ 0 from the address, else `fallback`: a hand-typed `?page=x` is page 0, not an error. */
function numberParam(value: string | null, fallback: number | undefined): number | undefined {
  const number = Number(value);
  return value !== null && Number.isSafeInteger(number) && number >= 0 ? number : fallback;
}

/**
 * Enrolled and not finished: what "continue learning" offers — what I started, and what I chose
 * and was let into (an assignment not yet started waits under "assigned to me").
 */
const isUnderway = (course: MyCourse) =>
  !course.progress.completed &&
  (course.status === 'in_progress' || (course.status === 'approved' && (course.source === 'self' || course.lastStudiedAt !== null)));

/** Put on me by staff (a rule, an import, by hand) rather than chosen. */
const isAssigned = (course: MyCourse) => course.source !== 'self' && course.status !== 'rejected';

/** Soonest due first, those without a date last. */
const byDue = (a: MyCourse, b: MyCourse) => (a.dueAt ?? '9999').localeCompare(b.dueAt ?? '9999');

function DueTag({ course }: { course: MyCourse }) {
  const { t } = useLocaleText();
  if (course.progress.completed) return <SiteTag tone="success">{t('site.status.completed')}</SiteTag>;
  if (course.overdue) {
    return (
      <SiteTag tone="danger">
        {t('site.overdue')}
        {course.dueAt !== null && ` · ${t('site.due', { date: course.dueAt.slice(0, 10) })}`}
      </SiteTag>
    );
  }
  return course.dueAt === null ? <SiteTag>{t('home.noDue')}</SiteTag> : <SiteTag tone="warning">{t('site.due', { date: course.dueAt.slice(0, 10) })}</SiteTag>;
}

function MyCourseCard({ course, showDue }: { course: MyCourse; showDue: boolean }) {
  return (
    <CourseCard
      course={{ id: course.courseId, title: course.title, cover: course.cover, required: course.required }}
      to={course.status === 'applied' || course.status === 'rejected' ? `/preview/${course.courseId}` : `/learning/${course.courseId}`}
      footer={
        <div className="course-site-card__footer">
          {showDue && <DueTag course={course} />}
          <ProgressBar percent={course.progress.percent} label={course.title} />
        </div>
      }
    />
  );
}

function MyCourses({ mine }: { mine: SiteData<MyCourse[]> }) {
  const { t } = useLocaleText();
  if (mine.loading) return <LoadingSkeleton lines={3} />;
  if (mine.error !== undefined) {
    return (
      <section className="site-section" aria-labelledby="home-continue">
        <h2 id="home-continue" className="site-section__title site-section__title--spaced">
          {t('home.continue')}
        </h2>
        <ErrorState error={mine.error} onRetry={mine.reload} section />
      </section>
    );
  }
  const courses = mine.data ?? [];
  const underway = courses.filter(isUnderway);
  const assigned = courses.filter(isAssigned).sort(byDue);
  return (
    <>
      <section className="site-section" aria-labelledby="home-continue">
        <div className="site-section__head">
          <h2 id="home-continue" className="site-section__title">
            {t('home.continue')}
          </h2>
        </div>
        {underway.length === 0 ? (
          <p className="site-muted">{t('home.continueEmpty')}</p>
        ) : (
          <div className="site-grid">
            {underway.map((course) => (
              <MyCourseCard key={course.applicantId} course={course} showDue={false} />
            ))}
          </div>
        )}
      </section>
      <section className="site-section" aria-labelledby="home-assigned">
        <div className="site-section__head">
          <h2 id="home-assigned" className="site-section__title">
            {t('home.assigned')}
          </h2>
        </div>
        {assigned.length === 0 ? (
          <p className="site-muted">{t('home.assignedEmpty')}</p>
        ) : (
          <div className="site-grid">
            {assigned.map((course) => (
              <MyCourseCard key={course.applicantId} course={course} showDue />
            ))}
          </div>
        )}
      </section>
    </>
  );
}

function CategoryChips({ selected, onSelect }: { selected: number | undefined; onSelect: (id: number | undefined) => void }) {
  const { t } = useLocaleText();
  const categories = useSiteData<SiteCategory[]>('api/site/categories');
  // The catalogue works without them: a failed or empty tree only leaves the chips out.
  const tree = categories.data ?? [];
  if (tree.length === 0) return null;
  const parentOfSelected = tree.find((top) => top.id === selected || top.children?.some((child) => child.id === selected));
  const chip = (id: number | undefined, name: string) => (
    <li key={id ?? 'all'}>
      <button type="button" className="site-chip" aria-pressed={selected === id} onClick={() => onSelect(id)}>
        {name}
      </button>
    </li>
  );
  return (
    <nav aria-label={t('home.categories')}>
      <ul className="site-chips">
        {chip(undefined, t('home.allCategories'))}
        {tree.map((category) => chip(category.id, category.name))}
      </ul>
      {parentOfSelected?.children !== undefined && parentOfSelected.children.length > 0 && (
        <ul className="site-chips">
          {chip(parentOfSelected.id, t('home.allCategories'))}
          {parentOfSelected.children.map((category) => chip(category.id, category.name))}
        </ul>
      )}
    </nav>
  );
}

function Catalogue() {
  const { t } = useLocaleText();
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const categoryId = numberParam(params.get('categoryId'), undefined) || undefined;
  const page = numberParam(params.get('page'), 0) ?? 0;
  const courses = useSiteData<Page<SiteCourse>>('api/site/courses', { q, categoryId, page, size: PAGE_SIZE });

  const change = (next: { categoryId?: number | undefined; page?: number }) => {
    const search = new URLSearchParams(params);
    if ('categoryId' in next) {
      if (next.categoryId === undefined) search.delete('categoryId');
      else search.set('categoryId', String(next.categoryId));
      search.delete('page');
    }
    if (next.page !== undefined) {
      if (next.page === 0) search.delete('page');
      else search.set('page', String(next.page));
    }
    setParams(search);
  };

  return (
    <section className="site-section" aria-labelledby="home-catalogue">
      <div className="site-section__head">
        <h2 id="home-catalogue" className="site-section__title">
          {q === '' ? t('home.catalogue') : t('home.searchResults', { q })}
        </h2>
        {q !== '' && (
          <Link className="site-link" to="/home">
            {t('home.clearSearch')}
          </Link>
        )}
      </div>
      <CategoryChips selected={categoryId} onSelect={(id) => change({ categoryId: id })} />
      {courses.loading && courses.data === undefined ? (
        <LoadingSkeleton />
      ) : courses.error !== undefined ? (
        <ErrorState error={courses.error} onRetry={courses.reload} section />
      ) : (courses.data?.content.length ?? 0) === 0 ? (
        q === '' ? (
          <EmptyState title={t('home.noCourses')} text={t('home.noCoursesText')} />
        ) : (
          <EmptyState
            title={t('home.noResults', { q })}
            text={t('home.noResultsText')}
            action={
              <Link className="button" to="/home">
                {t('home.clearSearch')}
              </Link>
            }
          />
        )
      ) : (
        <>
          <div className="site-grid" aria-busy={courses.loading}>
            {courses.data?.content.map((course) => <CourseCard key={course.id} course={course} />)}
          </div>
          <Pager
            page={page}
            size={PAGE_SIZE}
            total={courses.data?.totalElements ?? 0}
            onChange={(next) => {
              change({ page: next });
              window.scrollTo?.({ top: 0 });
            }}
          />
        </>
      )}
    </section>
  );
}

/**
 * The landing page of everyone signed in (`/` leads here): what I am studying, what I was
 * assigned and by when, and the catalogue by category, searched from the header (`?q=`).
 * Staff are also offered the back office.
 */
export function HomePage() {
  const { t } = useLocaleText();
  const user = useUserStore((state) => state.user);
  const staff = useUserStore((state) => canUseBackOffice(state.roles));
  const [params] = useSearchParams();
  const searching = (params.get('q')?.trim() ?? '') !== '';
  const mine = useSiteData<MyCourse[]>(searching ? undefined : 'api/site/my/courses');
  useDocumentTitle(t('route.home'));

  return (
    <SiteShell>
      <div className="home-main">
        <h1 className="site-page-title">{t('home.welcome', { name: user?.nickName ?? user?.username ?? '' })}</h1>
        {staff && (
          <section className="home-card" aria-labelledby="home-back-office">
            <div>
              <h2 id="home-back-office" className="home-card__title">
                {t('home.backOffice')}
              </h2>
              <p className="home-card__text">{t('home.backOfficeText')}</p>
            </div>
            <Link className="button button--primary button--large" to="/dashboard">
              {t('home.openBackOffice')}
            </Link>
          </section>
        )}
        {!searching && <MyCourses mine={mine} />}
        {/* Below my courses, once their height is known: cards arriving above it would push it down (layout shift). */}
        {(searching || !mine.loading) && <Catalogue />}
      </div>
    </SiteShell>
  );
}
