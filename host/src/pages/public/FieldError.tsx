import theme from 'antd/es/theme';
import { useTranslation } from 'react-i18next';
import type { ValidationIssue } from './validation';

/** The translated message of a field's issue, under the field (announced to screen readers). */
export function FieldError({ id, issue }: { id: string; issue: ValidationIssue | null }) {
  const { t } = useTranslation('shell');
  const { token } = theme.useToken();
  if (!issue) return null;
  return (
    <div id={id} role="alert" style={{ color: token.colorError, fontSize: token.fontSizeSM, marginTop: 4 }}>
      {t(`validation.${issue}`)}
    </div>
  );
}
