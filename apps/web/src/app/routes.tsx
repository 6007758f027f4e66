import { Suspense, useState, type ReactNode } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { AuthGate, BackOfficeGate, GuestOnly } from '../features/auth/auth-gate';
import { loadedComponent } from '../lib/loaded-component';
import { NotFoundPage } from './pages/not-found-page';
import { UnauthorizedPage } from './pages/unauthorized-page';
import { RootLayout } from './root-layout';

const pageLoading = <div className="page-loading" aria-busy="true" />;

// Every page loads on first use, without Suspense (lib/loaded-component.ts): each would otherwise
// wait out React's 300 ms reveal throttle. The app runs React Router in its declarative mode (see AppRoutes).
const LoginPage = loadedComponent(async () => ({ default: (await import('../features/auth/login-page')).LoginPage }), pageLoading);
const DownloadPage = loadedComponent(async () => ({ default: (await import('../features/deploy/site/download-page')).DownloadPage }), pageLoading);
const HomePage = loadedComponent(async () => ({ default: (await import('../features/home/site/home-page')).HomePage }), pageLoading);
const PreviewPage = loadedComponent(async () => ({ default: (await import('../features/courses/site/preview-page')).PreviewPage }), pageLoading);
const LearningPage = loadedComponent(async () => ({ default: (await import('../features/courses/site/learning-page')).LearningPage }), pageLoading);
const UserCenterPage = loadedComponent(async () => ({ default: (await import('../features/users/site/user-center-page')).UserCenterPage }), pageLoading);
const UserSettingPage = loadedComponent(async () => ({ default: (await import('../features/users/site/user-setting-page')).UserSettingPage }), pageLoading);
const PlayPage = loadedComponent(async () => ({ default: (await import('../features/progress/site/play-page')).PlayPage }), pageLoading);
const AnswerExamPage = loadedComponent(async () => ({ default: (await import('../features/attempts/site/answer-exam-page')).AnswerExamPage }), pageLoading);
const ViewCertPage = loadedComponent(async () => ({ default: (await import('../features/certificates/site/view-cert-page')).ViewCertPage }), pageLoading);
const VerifyCertPage = loadedComponent(async () => ({ default: (await import('../features/certificates/site/verify-cert-page')).VerifyCertPage }), pageLoading);
const NotificationsPage = loadedComponent(async () => ({ default: (await import('../features/notifications/site/notifications-page')).NotificationsPage }), pageLoading);
const AdminLayout = loadedComponent(async () => ({ default: (await import('./admin-layout')).AdminLayout }), pageLoading);

/** Around each page: what it loads itself (a chart, the editor, its catalogue) may still suspend. */
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
