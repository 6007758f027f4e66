import { Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { AuthGate, BackOfficeGate, GuestOnly } from '../features/auth/auth-gate';
import { loadedComponent } from '../lib/loaded-component';
import { NotFoundPage } from './pages/not-found-page';
import { UnauthorizedPage } from './pages/unauthorized-page';
import { RootLayout } from './root-layout';

const pageLoading = <div className="page-loading" aria-busy="true" />;

// Every page loads on first use, without Suspense (lib/loaded-component.ts): each would otherwise
// wait out React's 300 ms reveal throttle. The app runs React Router in its declarative mode (see AppRoutes).
function page<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return loadedComponent(async () => ({ default: (await load())[name] }), pageLoading);
}

const LoginPage = page(() => import('../features/auth/login-page'), 'LoginPage');
const DownloadPage = page(() => import('../features/deploy/site/download-page'), 'DownloadPage');
const HomePage = page(() => import('../features/home/site/home-page'), 'HomePage');
const PreviewPage = page(() => import('../features/courses/site/preview-page'), 'PreviewPage');
const LearningPage = page(() => import('../features/courses/site/learning-page'), 'LearningPage');
const UserCenterPage = page(() => import('../features/users/site/user-center-page'), 'UserCenterPage');
const UserSettingPage = page(() => import('../features/users/site/user-setting-page'), 'UserSettingPage');
const PlayPage = page(() => import('../features/progress/site/play-page'), 'PlayPage');
const AnswerExamPage = page(() => import('../features/attempts/site/answer-exam-page'), 'AnswerExamPage');
const ViewCertPage = page(() => import('../features/certificates/site/view-cert-page'), 'ViewCertPage');
const VerifyCertPage = page(() => import('../features/certificates/site/verify-cert-page'), 'VerifyCertPage');
const NotificationsPage = page(() => import('../features/notifications/site/notifications-page'), 'NotificationsPage');
const AdminLayout = page(() => import('./admin-layout'), 'AdminLayout');

/** Around each page: what it loads itself (a chart, the editor, its catalogue) may still suspend. */
function loading(content: ReactNode) {
  return <Suspense fallback={pageLoading}>{content}</Suspense>;
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
