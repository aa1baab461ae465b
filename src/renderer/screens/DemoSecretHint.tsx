/**
 * In the demo, where a screen asks for the library secret: the demo has its own, public one, used in one
 * click from Settings, so a newcomer is never left looking for a secret nobody gave them.
 */
import { useNavigate } from '../hooks/route';
import { settingsText as t } from '../text/settings';

export function DemoSecretHint(props: { offered: boolean }) {
  const navigate = useNavigate();
  if (!props.offered) return null;
  return (
    <p data-testid="demo-secret-hint">
      {t('demoHintStart')}{' '}
      <button type="button" className="link" onClick={() => navigate({ screen: 'settings' })}>
        {t('demoHintSettings')}
      </button>{' '}
      {t('demoHintPath')}
      <strong>{t('useDemoSecret')}</strong>
      {t('sentenceEnd')}
    </p>
  );
}
