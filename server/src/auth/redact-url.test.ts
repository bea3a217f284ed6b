import { describe, expect, it } from 'vitest';
import { redactUrl } from './password-reset';

describe('redactUrl (request URLs in the logs)', () => {
  it('hides the reset path, session tokens and the webhook secret carried in the query', () => {
    expect(redactUrl('/api/resetpasswords/a@b.c/123456/Segredo1')).toBe('/api/resetpasswords/[redacted]');
    expect(redactUrl('/api/forgetpassword/a@b.c')).toBe('/api/forgetpassword/[redacted]');
    expect(redactUrl('/api/webchat/wck_x/events?sessionToken=wcs_secret')).toBe(
      '/api/webchat/wck_x/events?sessionToken=[redacted]',
    );
    expect(redactUrl('/api/x?a=1&token=abc&b=2')).toBe('/api/x?a=1&token=[redacted]&b=2');
    expect(redactUrl('/api/billing/webhook/efi/pix?hmac=s3cret')).toBe('/api/billing/webhook/efi/pix?hmac=[redacted]');
    expect(redactUrl('/api/tickets?pageNumber=2')).toBe('/api/tickets?pageNumber=2');
  });
});
