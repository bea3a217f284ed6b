import { Button, Result } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PluginLoadError, retriesInPlace } from './plugin-remotes';

function PluginErrorPanel({ name, error, onRetry }: { name: string; error: Error; onRetry(): void }) {
  const { t } = useTranslation('shell');
  const code = error instanceof PluginLoadError ? error.code : null;
  const loadFailed = error instanceof PluginLoadError;
  return (
    <Result
      status="error"
      title={loadFailed ? t('plugin.loadFailed', { name }) : t('plugin.crashed', { name })}
      subTitle={code ? t('plugin.errorCode', { code }) : t('plugin.tryAgainLater')}
      extra={
        <Button type="primary" onClick={onRetry}>
          {t('plugin.retry')}
        </Button>
      }
    />
  );
}

interface PluginErrorBoundaryProps {
  /** The feature's id, shown in the panel. */
  name: string;
  children: ReactNode;
  /** Called before re-rendering the children on retry (to forget a failed load). */
  onRetry?(): void;
}

/**
 * Wraps every feature mount: a plugin that fails to load (RUNTIME-003 and friends) or throws while
 * rendering shows a translated error panel in its place, never a blank app.
 */
export class PluginErrorBoundary extends Component<PluginErrorBoundaryProps, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`Feature '${this.props.name}' failed`, error, info.componentStack);
  }

  private readonly retry = () => {
    if (this.state.error && !retriesInPlace(this.state.error)) {
      globalThis.location.reload();
      return;
    }
    this.props.onRetry?.();
    this.setState({ error: null });
  };

  override render(): ReactNode {
    if (this.state.error) return <PluginErrorPanel name={this.props.name} error={this.state.error} onRetry={this.retry} />;
    return this.props.children;
  }
}
