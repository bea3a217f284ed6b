import { fireEvent, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderShell, serveApi } from '../../../testing/render-shell';
import { registerShellTranslations } from '../../i18n';
import { VolumeControl } from './VolumeControl';

describe('the volume popover of the top bar', () => {
  beforeAll(async () => {
    await registerShellTranslations();
  });

  it('has a labelled slider from 0 to 1 in steps of 0.1, kept on this device', async () => {
    serveApi();
    globalThis.localStorage.setItem('volume', '0.4');
    renderShell(<VolumeControl />);
    fireEvent.click(screen.getByRole('button', { name: 'Volume das notificações' }));
    const slider = await screen.findByRole('slider', { name: 'Volume das notificações' });
    expect([slider.getAttribute('aria-valuemin'), slider.getAttribute('aria-valuemax')]).toEqual(['0', '1']);
    expect(slider.getAttribute('aria-valuenow')).toBe('0.4');
    fireEvent.keyDown(slider, { key: 'ArrowRight', keyCode: 39, which: 39 });
    expect(slider.getAttribute('aria-valuenow')).toBe('0.5');
    expect(globalThis.localStorage.getItem('volume')).toBe('0.5');
    for (let step = 0; step < 8; step++) fireEvent.keyDown(slider, { key: 'ArrowRight', keyCode: 39, which: 39 });
    expect(globalThis.localStorage.getItem('volume')).toBe('1');
  });
});
