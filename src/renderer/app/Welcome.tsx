/**
 * The first-run welcome: what the demo is, what the wallet holds, where to start. Not a modal, so it never
 * stands between a person and the screen; closing it is remembered in desk.db, and Help opens it again.
 */
import { useEffect, useRef } from 'react';
import { useNavigate } from '../hooks/route';
import { appText as t } from '../text/app';

/**
 * `focus`: opened from Help, so focus moves to it; on first run the screen keeps it. `onShelf`: the Shelf is
 * already the screen, so there is no "Start on the Shelf" to offer.
 */
export function Welcome(props: {
  demo: boolean;
  focus: boolean;
  onShelf: boolean;
  onClose: () => void;
  onSyntax: () => void;
}) {
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (props.focus) heading.current?.focus();
  }, [props.focus]);
  return (
    <section className="welcome" aria-labelledby="welcome-title" data-testid="welcome">
      <h2 id="welcome-title" ref={heading} tabIndex={-1}>
        {t('welcomeTitle')}
      </h2>
      {props.demo ? (
        <ul>
          <li>
            {t('the')}
            <span className="badge">{t('demo')}</span>
            {t('demoBadgeMeans')}
          </li>
          <li>{t('demoWallet')}</li>
          <li>
            {t('startOnThe')}
            <strong>{t('shelf')}</strong>
            {t('demoStart')}
            <strong>{t('library')}</strong>
            {t('demoOwned')}
            <strong>{t('dossiers')}</strong>
            {t('demoSecret')}
          </li>
        </ul>
      ) : (
        <ul>
          <li>
            {t('startOnThe')}
            <strong>{t('shelf')}</strong>
            {t('start')}
            <strong>{t('settingsWallet')}</strong>
            {t('sentenceEnd')}
          </li>
          <li>
            {t('ownedIn')}
            <strong>{t('library')}</strong>
            {t('ownedEnd')}
          </li>
        </ul>
      )}
      <p>
        {t('searchTakes')}
        <code>handle:</code>
        {t('comma')}
        <code>topic:</code>
        {t('comma')}
        <code>posts&gt;100</code>
        {t('searchMore')}
        <kbd>?</kbd>
        {t('or')}
        <button type="button" className="link" onClick={props.onSyntax}>
          {t('seeSyntax')}
        </button>
        {t('sentenceEnd')}
      </p>
      <div className="actions">
        {props.onShelf ? null : (
          <button
            type="button"
            className="primary"
            onClick={() => {
              props.onClose();
              navigate({ screen: 'shelf' });
            }}
          >
            {t('startOnShelf')}
          </button>
        )}
        <button type="button" className={props.onShelf ? 'primary' : undefined} onClick={props.onClose}>
          {t('close')}
        </button>
      </div>
    </section>
  );
}
