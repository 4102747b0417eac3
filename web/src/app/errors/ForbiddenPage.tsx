import { HomeErrorPage } from './ErrorPage';

export function ForbiddenPage() {
  return <HomeErrorPage status={403} testId="forbidden-page" messages={{ title: 'errors.forbidden.title', text: 'errors.forbidden.text' }} />;
}
