/**
 * What the host provides under the shared key `react-router`: the declarative router API (components,
 * hooks and path helpers) that the shell and every feature use. A shared module is never tree-shaken, and
 * the whole package (data routers, server rendering, RSC) would weigh 60 KB gzip before the login page
 * could paint; this surface is about a third of that.
 *
 * Features (modules and plugin remotes) may import any of these from 'react-router'. Anything else
 * (`createBrowserRouter`, loaders and actions, …) is not available at run time: add it here first.
 */
export {
  BrowserRouter,
  createPath,
  createRoutesFromChildren,
  createRoutesFromElements,
  createSearchParams,
  generatePath,
  href,
  Link,
  MemoryRouter,
  matchPath,
  matchRoutes,
  Navigate,
  NavLink,
  Outlet,
  parsePath,
  Route,
  Routes,
  renderMatches,
  resolvePath,
  useBeforeUnload,
  useHref,
  useInRouterContext,
  useLinkClickHandler,
  useLocation,
  useMatch,
  useNavigate,
  useNavigationType,
  useOutlet,
  useOutletContext,
  useParams,
  useResolvedPath,
  useRoutes,
  useSearchParams,
} from '@balcao/react-router-impl';
