import { fireEvent, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderShell, serveApi } from '../../../testing/render-shell';
import { registerShellTranslations } from '../../i18n';
import { PluginErrorBoundary } from './PluginErrorBoundary';
import { RemoteRoute } from './RemoteRoute';

let broken = true;
function Fragile() {
  if (broken) throw new Error('render failed');
  return <p>recovered</p>;
}

describe('feature mounts never blank the app', () => {
  beforeAll(async () => {
    await registerShellTranslations();
  });

  it('shows a translated panel for a feature that throws, and renders it again on retry', async () => {
    serveApi();
    const silenced = console.error;
    console.error = () => {};
    try {
      renderShell(
        <PluginErrorBoundary name="kanban">
          <Fragile />
        </PluginErrorBoundary>,
      );
      expect(screen.getByText('O módulo “kanban” encontrou um erro.')).toBeTruthy();
      broken = false;
      fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
      expect(await screen.findByText('recovered')).toBeTruthy();
    } finally {
      console.error = silenced;
    }
  });

  it('shows the load-failure panel when a remote cannot be loaded', async () => {
    serveApi();
    const silenced = console.error;
    console.error = () => {};
    try {
      renderShell(
        <RemoteRoute
          path="/hello"
          listing={{
            id: 'hello',
            version: '1.0.0',
            planFlag: null,
            remote: '/plugins/hello/mf-manifest.json',
            remoteName: 'balcao_hello',
            menu: [],
            routes: [{ path: '/hello' }],
            slots: [],
          }}
        />,
        { route: '/hello' },
      );
      // the federation runtime gives up on a missing remote after about a second; a busy machine takes longer
      expect(await screen.findByText('Não foi possível carregar o módulo “hello”.', undefined, { timeout: 15_000 })).toBeTruthy();
      expect(screen.getByText('Código do erro: RUNTIME-009. O restante do sistema continua funcionando.')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Tentar novamente' })).toBeTruthy();
    } finally {
      console.error = silenced;
    }
  }, 20_000);
});
