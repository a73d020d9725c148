import { Component, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { ErrorScreen } from './ErrorScreen';

interface ErrorBoundaryProps {
  children: ReactNode;
}

interface ErrorBoundaryState {
  error: unknown;
  hasError: boolean;
}

/** Catches render errors in an island and shows the error screen; Try Again renders it afresh. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: undefined, hasError: false };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Island crashed', error, info.componentStack);
  }

  private readonly retry = () => this.setState({ error: undefined, hasError: false });

  override render() {
    if (this.state.hasError) return <ErrorScreen error={this.state.error} onRetry={this.retry} />;
    return this.props.children;
  }
}

/** Wraps an island's root component so a crash shows the error screen instead of a blank space. */
export function withErrorBoundary<Props extends object>(Island: ComponentType<Props>): ComponentType<Props> {
  function Guarded(props: Props) {
    return (
      <ErrorBoundary>
        <Island {...props} />
      </ErrorBoundary>
    );
  }
  Guarded.displayName = `withErrorBoundary(${Island.displayName ?? Island.name})`;
  return Guarded;
}
