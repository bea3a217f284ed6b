import { currentLanguage, LANGUAGES, type Language, setLanguage } from '@balcao/plugin-sdk/ui';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES } from '../../language-names';

/** Four small buttons to pick the interface language (pt, en, es, tr), stored on this device. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation('shell');
  const active = (i18n.resolvedLanguage as Language | undefined) ?? currentLanguage();
  return (
    <Flex gap={2} role="group" aria-label={t('language.choose')}>
      {LANGUAGES.map((language) => (
        <Button
          key={language}
          size="small"
          type={language === active ? 'primary' : 'text'}
          aria-pressed={language === active}
          lang={language}
          title={LANGUAGE_NAMES[language]}
          onClick={() => void setLanguage(language)}
        >
          {language.toUpperCase()}
        </Button>
      ))}
    </Flex>
  );
}
