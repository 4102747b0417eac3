import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ApplicationErrorPage } from './errors/ApplicationErrorPage';

/** The last line of defence: a crash anywhere shows the application-error page (500). */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Application error', error, info.componentStack);
  }

  override render() {
    if (this.state.error) return <ApplicationErrorPage error={this.state.error} />;
    return this.props.children;
  }
}
