import Flex from 'antd/es/flex';
import theme from 'antd/es/theme';
import { useTranslation } from 'react-i18next';
import { MAX_PASSWORD_SCORE, passwordScore, strengthLevel } from './password-strength';

/** The login's strength bar: five segments, coloured and named weak, medium or strong. */
export function PasswordStrengthBar({ password }: { password: string }) {
  const { t } = useTranslation('shell');
  const { token } = theme.useToken();
  const score = passwordScore(password);
  const level = strengthLevel(score);
  const color = { weak: token.colorError, medium: token.colorWarning, strong: token.colorSuccess }[level];
  return (
    <Flex align="center" gap={8} data-testid="password-strength" data-level={level} style={{ marginTop: 8 }}>
      <Flex
        gap={4}
        role="meter"
        aria-label={t('login.strength.label')}
        aria-valuemin={0}
        aria-valuemax={MAX_PASSWORD_SCORE}
        aria-valuenow={score}
        aria-valuetext={t(`login.strength.${level}`)}
        style={{ flex: 1 }}
      >
        {Array.from({ length: MAX_PASSWORD_SCORE }, (_, step) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: the five segments never move
            key={step}
            style={{ flex: 1, height: 6, borderRadius: 3, background: step < score ? color : token.colorFillSecondary }}
          />
        ))}
      </Flex>
      <span style={{ fontSize: token.fontSizeSM, color: token.colorTextSecondary, minWidth: 44 }}>
        {t(`login.strength.${level}`)}
      </span>
    </Flex>
  );
}
