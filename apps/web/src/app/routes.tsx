import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { AuthGate, BackOfficeGate, GuestOnly } from '../features/auth/auth-gate';
import { NotFoundPage } from './pages/not-found-page';
import { UnauthorizedPage } from './pages/unauthorized-page';
import { RootLayout } from './root-layout';

// Every page is React.lazy: the app runs React Router in its declarative mode (see AppRoutes).
const LoginPage = lazy(async () => ({ default: (await import('../features/auth/login-page')).LoginPage }));
const DownloadPage = lazy(async () => ({ default: (await import('../features/deploy/site/download-page')).DownloadPage }));
const HomePage = lazy(async () => ({ default: (await import('../features/home/site/home-page')).HomePage }));
const PreviewPage = lazy(async () => ({ default: (await import('../features/courses/site/preview-page')).PreviewPage }));
const LearningPage = lazy(async () => ({ default: (await import('../features/courses/site/learning-page')).LearningPage }));
const UserCenterPage = lazy(async () => ({ default: (await import('../features/users/site/user-center-page')).UserCenterPage }));
const UserSettingPage = lazy(async () => ({ default: (await import('../features/users/site/user-setting-page')).UserSettingPage }));
const PlayPage = lazy(async () => ({ default: (await import('../features/progress/site/play-page')).PlayPage }));
const AnswerExamPage = lazy(async () => ({ default: (await import('../features/attempts/site/answer-exam-page')).AnswerExamPage }));
const ViewCertPage = lazy(async () => ({ default: (await import('../features/certificates/site/view-cert-page')).ViewCertPage }));
const VerifyCertPage = lazy(async () => ({ default: (await import('../features/certificates/site/verify-cert-page')).VerifyCertPage }));
const NotificationsPage = lazy(async () => ({ default: (await import('../features/notifications/site/notifications-page')).NotificationsPage }));
const AdminLayout = lazy(async () => ({ default: (await import('./admin-layout')).AdminLayout }));

const pageLoading = <div className="page-loading" aria-busy="true" />;

function loading(page: ReactNode) {
  return <Suspense fallback={pageLoading}>{page}</Suspense>;
}

/**
 * SPEC §2's route table. Pages load on demand so the login page carries only itself; every path
 * a signed-in staff member opens that is not listed here is resolved by the back office from
 * the server's menu tree (or ends on /404).
 */
export function createAppRoutes(): RouteObject[] {
  return [
    {
      element: <RootLayout />,
      children: [
        {
          element: <GuestOnly />,
          children: [{ path: '/login', element: loading(<LoginPage />) }],
        },
        { path: '/download', element: loading(<DownloadPage />) },
        // Public: the address a certificate's QR code holds, opened by whoever checks it.
        { path: '/verify-cert', element: loading(<VerifyCertPage />) },
        { path: '/404', element: <NotFoundPage /> },
        { path: '/401', element: <UnauthorizedPage /> },
        {
          element: <AuthGate />,
          children: [
            { path: '/', element: <Navigate to="/home" replace /> },
            { path: '/home', element: loading(<HomePage />) },
            { path: '/preview/:id', element: loading(<PreviewPage />) },
            { path: '/learning/:id', element: loading(<LearningPage />) },
            { path: '/user-center', element: loading(<UserCenterPage />) },
            { path: '/user-setting', element: loading(<UserSettingPage />) },
            { path: '/notifications', element: loading(<NotificationsPage />) },
            { path: '/play', element: loading(<PlayPage />) },
            { path: '/answer-exam', element: loading(<AnswerExamPage />) },
            { path: '/view-cert', element: loading(<ViewCertPage />) },
            { element: <BackOfficeGate />, children: [{ path: '*', element: loading(<AdminLayout />) }] },
          ],
        },
      ],
    },
  ];
}

/**
 * The route table in React Router's declarative mode (inside a `BrowserRouter`, or a
 * `MemoryRouter` in tests). The app uses none of the data router's features (loaders, actions,
 * fetchers, blockers), and the data router's code weighs 15 KiB gzipped on every first screen,
 * the login and learner pages' included (DESIGN.md §8's 130 KiB).
 */
export function AppRoutes() {
  const [routes] = useState(createAppRoutes);
  return useRoutes(routes);
}
