import { HomeErrorPage } from './ErrorPage';

export function NotFoundPage() {
  return <HomeErrorPage status={404} testId="not-found-page" messages={{ title: 'errors.notFound.title', text: 'errors.notFound.text' }} />;
}
