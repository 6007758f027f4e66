import { Navigate, type RouteObject } from 'react-router';
import { NotFoundPage } from './pages/not-found-page';
import { UnauthorizedPage } from './pages/unauthorized-page';
import { RootLayout } from './root-layout';

/**
 * The routes that exist before anyone signs in. Feature routes join `children` as their
 * pages land; the catch-all stays last so any path nobody claims ends on /404.
 */
export function createAppRoutes(children: RouteObject[] = []): RouteObject[] {
  return [
    {
      element: <RootLayout />,
      children: [
        { path: '/', element: <Navigate to="/home" replace /> },
        { path: '/404', element: <NotFoundPage /> },
        { path: '/401', element: <UnauthorizedPage /> },
        ...children,
        { path: '*', element: <Navigate to="/404" replace /> },
      ],
    },
  ];
}
