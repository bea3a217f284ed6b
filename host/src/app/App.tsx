import { i18n, store } from '@balcao/plugin-sdk/ui';
import { lazy, Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { BrowserRouter, Route, Routes } from 'react-router';
import { LoginPage } from '../pages/login/LoginPage';
import { ThemeProvider } from '../theme/ThemeProvider';
import { PageSkeleton } from './PageSkeleton';
import { ExpiredOnly, PublicOnly, RequireSession } from './session-guards';

// Only the login is in the first download. The frame (which uses the whole shared antd) loads after login.
const SignupPage = lazy(() => import('../pages/signup/SignupPage'));
const ForgetPasswordPage = lazy(() => import('../pages/forget-password/ForgetPasswordPage'));
const SubscriptionExpiredPage = lazy(() => import('../pages/SubscriptionExpiredPage'));
const AppFrame = lazy(() => import('../frame/AppFrame'));
const ExpiredPayScreen = lazy(() => import('../frame/ExpiredPayScreen'));

/** The routes of docs/product/tickets-and-inbox.md#screens-and-routes: public pages, the expired-subscription page, and the private frame. */
export function AppRoutes() {
  return (
    <Suspense fallback={<PageSkeleton />}>
      <Routes>
        <Route element={<PublicOnly />}>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/signup" element={<SignupPage />} />
          <Route path="/forgetpsw" element={<ForgetPasswordPage />} />
        </Route>
        <Route
          path="/financeiro-aberto"
          element={<ExpiredOnly payScreen={<ExpiredPayScreen />} notice={<SubscriptionExpiredPage />} />}
        />
        <Route
          path="*"
          element={
            <RequireSession>
              <AppFrame />
            </RequireSession>
          }
        />
      </Routes>
    </Suspense>
  );
}

/** The shell: store, translations, theme and router. */
export function App() {
  return (
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <ThemeProvider>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </ThemeProvider>
      </I18nextProvider>
    </Provider>
  );
}
