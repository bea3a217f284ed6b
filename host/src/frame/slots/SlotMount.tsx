import type { SlotMountProps } from '@balcao/plugin-sdk/ui';
import { Component, type ErrorInfo, type ReactNode, Suspense } from 'react';
import { PluginErrorBoundary } from '../remotes/PluginErrorBoundary';

interface QuietBoundaryProps {
  name: string;
  children: ReactNode;
}

/**
 * The boundary of an inline contribution (a header button, a drawer section, a badge): a contribution that
 * throws is logged and renders nothing, so the inbox around it and the other contributions go on working.
 */
class QuietBoundary extends Component<QuietBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`Slot contribution ${this.props.name} failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * The shell's wrapper around one slot contribution: its own error boundary and suspense. A Settings tab is a
 * page of its own, so it gets the features' error panel (with its retry); everything else fails silently.
 */
export function SlotMount({ featureId, slot, contributionKey, fallback = null, children }: SlotMountProps) {
  const content = <Suspense fallback={fallback}>{children}</Suspense>;
  if (slot === 'settingsTabs') return <PluginErrorBoundary name={featureId}>{content}</PluginErrorBoundary>;
  return <QuietBoundary name={`'${featureId}:${contributionKey}' of slot '${slot}'`}>{content}</QuietBoundary>;
}
